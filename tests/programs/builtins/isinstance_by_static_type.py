# expect: (True, False, True, True, False, True, 3)
# isinstance where the static type decides it: an int is an int (and never a float), a str a
# str; the argument is evaluated (a call here).
def count(xs: list[int]) -> int:
    return len(xs)


def main() -> tuple[bool, bool, bool, bool, bool, bool, int]:
    n = 5
    s = "a"
    xs = [1, 2, 3]
    return (isinstance(n, int), isinstance(n, float), isinstance(s, (int, str)),
            isinstance(xs, list), isinstance(count(xs), str), isinstance(1.5, float),
            count(xs))
