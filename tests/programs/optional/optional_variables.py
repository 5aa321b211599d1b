# call: main()
# expect: (4, None, [None, 2, None], True)
from typing import Optional


def best(xs: list[int]) -> Optional[int]:
    found: Optional[int] = None
    for x in xs:
        if x % 2 == 0 and (found is None or x > found):
            found = x
    return found


def evens(xs: list[int]) -> list[Optional[int]]:
    return [x if x % 2 == 0 else None for x in xs]


def main() -> tuple[Optional[int], Optional[int], list[Optional[int]], bool]:
    a = best([3, 4, 1, 2])
    b = best([1, 3])
    c = evens([1, 2, 3])
    return a, b, c, c == [None, 2, None]
