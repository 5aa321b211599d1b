# expect: [True, False, True, True, True, False, True, True, False]
def main() -> list[bool]:
    a = 1
    b = 2
    c = 3
    x = 5
    return [a < b < c, c > b > b, a < c > b, a == a == a, a < b == b < c,
            a < b > c, 0 <= x < 10, 1 < 2 < 3 < 4 < 5, 1 < 3 < 2 < 4]
