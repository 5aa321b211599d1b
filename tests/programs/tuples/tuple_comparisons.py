# expect: [True, True, True, True, True, True, False, True]
def main() -> list[bool]:
    p = (1, 2)
    return [p < (1, 3), (1, "b") > (1, "a"), (2, 0) > (1, 9), p == (1, 2),
            p != (2, 1), (1, 2, 3) <= (1, 2, 3), (1.5, "x") < (1.5, "x"), ("a", 2) >= ("a", 1)]
