# expect: (2.5, 3.0, 0.0, 1.0, 7.0, True)
# math.fabs: a float, of an int or bool too (made a float first); -0.0 becomes 0.0.
import math
from math import fabs


def main() -> tuple[float, float, float, float, float, bool]:
    n = -3
    z = -0.0
    inf = math.inf
    big = math.fabs(-inf) == inf
    return (math.fabs(-2.5), math.fabs(n), math.fabs(z), math.fabs(True), fabs(-7), big)
