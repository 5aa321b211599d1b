# expect: ([0.0, 1.0, 1.4142135623730951, 4.0, 0.5], [0, 1, 2, -1, -3, 7], [1, 2, 3, 0, -2, 7], 3, 3, -0.0)
import math
from math import ceil


def main():
    """import math: math.sqrt (a float), math.floor and math.ceil (ints), as in Python."""
    xs = [0.5, 1.5, 2.5, -0.5, -2.3, 7.0]
    roots = [math.sqrt(v) for v in [0, 1, 2, 16]] + [math.sqrt(0.25)]
    floors = [math.floor(x) for x in xs]
    ceils = [ceil(x) for x in xs]
    return roots, floors, ceils, math.floor(3), math.ceil(True + 2), math.sqrt(-0.0)
