# call: min_max([3, -1, 4, 1, -5, 9, 2, 6])
# expect: (-5, 9)
from typing import List, Tuple


def min_max(xs: List[int]) -> Tuple[int, int]:
    lo = xs[0]
    hi = xs[0]
    for x in xs:
        if x < lo:
            lo = x
        if x > hi:
            hi = x
    return lo, hi
