# call: main()
# expect: [True, False, True, True, False, False, True]
def fly(q: list[int], w: int) -> bool:
    """HumanEval/72's tests ask `candidate(...) is True`."""
    return sum(q) <= w and q == q[::-1]


def main() -> list[bool]:
    n = 1
    return [
        fly([3, 2, 3], 9) is True,
        fly([1, 2], 5) is True,
        fly([1, 2], 5) is False,
        fly([3], 5) is not False,
        n is True,
        True is fly([3, 2, 3], 1),
        n is not False,
    ]
