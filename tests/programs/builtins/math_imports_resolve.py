# expect: 9.0
# Each use of math is bound: the module's import for main, g's own import of floor (a local,
# read after it), and the module's from-import of ceil.
import math
from math import ceil


def g(x: float) -> int:
    from math import floor
    return floor(x)


def main() -> float:
    return math.sqrt(16.0) + g(3.5) + ceil(1.5)
