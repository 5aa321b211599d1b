# call: main()
# expect: ('abc', None, 3, True)
# A conditional expression and returns of three kinds (None, str, int).


def f(k: int):
    if k == 0:
        return None
    if k == 1:
        return "abc"
    return 3


def main():
    a = f(1)
    b = f(0)
    c = f(2)
    return (a, b, c, f(0) is None)
