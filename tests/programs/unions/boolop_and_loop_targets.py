# call: main()
# expect: ([], True, 'b', 3, (2, 0.5), 'ab')
# `xs and flag` of two kinds, a loop variable that is also assigned another kind, a tuple
# variable whose items are ints or floats.


def first_or_flag(xs: list[str], flag: bool):
    return xs and flag


def main():
    a = first_or_flag([], True)
    b = first_or_flag(["x"], True)
    c = "b" if len("ab") > 1 else 3
    last = 0
    for ch in "ab":
        last = ch
    n = 0
    for k in ["a", "b", "c"]:
        n = k
    n = 3
    pair = (1, 2)
    if n > 2:
        pair = (2, 0.5)
    word = ""
    for w in ["a", "b"]:
        word = word + w
    return (a, b, c, n, pair, word if last == "b" else 0)
