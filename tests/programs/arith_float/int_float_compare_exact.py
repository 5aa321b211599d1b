# expect: [False, True, True, True, True, True, True, True]
def main() -> list[bool]:
    """int and float compare by exact value, not after rounding the int."""
    a = 9007199254740993
    f = 9007199254740992.0
    return [a == f, a > f, float(a) == f, a - 1 == f, a - 1 <= f, 3 == 3.0, 2 < 2.5, -1 > -1.5]
