# expect: (0, 0, 0, '')
def main() -> tuple[int, int, int, str]:
    empty: list[int] = []
    a = 0
    for x in empty:
        a += x
    b = 0
    for i in range(5, 5):
        b += 1
    c = 0
    while c > 0:
        c -= 1
    s = ""
    for ch in "":
        s += ch
    return a, b, c, s
