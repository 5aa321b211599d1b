# expect trap: AssertionError
# The module's own test, with its module variables, fails: that is the outcome, as in CPython.
def double(xs: list[int]) -> list[int]:
    return [2 * x for x in xs]


xs = [1, 2, 3]
ys = double(xs)
assert ys == [2, 4, 7]


def main() -> int:
    return 0
