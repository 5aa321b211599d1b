# call: main()
# expect: [-1, 6, 0, 5, 11, 3]
from typing import Optional


def find(xs: list[int], x: int) -> Optional[int]:
    for i, v in enumerate(xs):
        if v == x:
            return i
    return None


def early_exit(xs: list[int], x: int) -> int:
    i = find(xs, x)
    if i is None:
        return -1
    return i * 2 + xs[i]


def in_else(xs: list[int], x: int) -> int:
    i = find(xs, x)
    return 0 if i is None else i + 4


def in_and(xs: list[int], x: int) -> int:
    i = find(xs, x)
    if i is not None and i > 1:
        return i + 3
    return 0


def main() -> list[int]:
    xs = [5, 1, 2]
    return [
        early_exit(xs, 9),
        early_exit(xs, 2),
        in_else(xs, 7),
        in_else(xs, 1),
        in_and(xs, 2) + 6,
        in_and(xs, 5) + 3,
    ]
