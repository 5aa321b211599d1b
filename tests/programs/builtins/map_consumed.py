# expect: (10, '0 1 2 3', True, True, [1, 3], 4)
# map(f, xs) given to a builtin that consumes it: the same items, in order (all and any stop at
# the first item that decides, as map's laziness lets them).
def digit(c: str) -> int:
    return int(c)


def main() -> tuple[int, str, bool, bool, list[int], int]:
    s = "1234"
    return (sum(map(int, s)), " ".join(map(str, range(4))), all(map(lambda c: c.isdigit(), s)),
            any(map(lambda c: digit(c) > 3, s + "x")), sorted(set(map(digit, "313"))),
            max(map(len, ["a", "abcd", "ab"])))
