# call: main()
# expect: [2, None]
from typing import Optional


def first_positive(xs: list[int]) -> Optional[int]:
    """Python returns None when the loop ends: an Optional result says so."""
    for x in xs:
        if x > 0:
            return x


def main() -> list[Optional[int]]:
    return [first_positive([-1, 2, 3]), first_positive([-1])]
