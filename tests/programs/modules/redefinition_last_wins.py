# expect: [1, 4, 9]
# A prompt's docstring-only stub, then the full definition: the last def of a name is the one
# bound when main runs (and the helper from before stays defined).
from typing import List


def square(x: int) -> int:
    return x * x


def squares(xs: List[int]) -> List[int]:
    """Return the squares of xs.
    >>> squares([1, 2, 3])
    [1, 4, 9]
    """


def squares(xs: List[int]) -> List[int]:
    return [square(x) for x in xs]


def main() -> List[int]:
    return squares([1, 2, 3])
