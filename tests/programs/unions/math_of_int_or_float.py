# expect: (11, [1, 3, -1], 3.5)
# math's functions of a value that is an int or a float: one call per alternative, by its tag
import math
from math import floor


def sum_squares(lst):
    return sum(math.ceil(x) ** 2 for x in lst)


def main():
    mixed = [1, 2.5, -1.4]
    roots = 0.0
    for v in [4, 2.25]:
        roots += math.sqrt(v)
    return sum_squares(mixed), [floor(v + 0.5) for v in mixed], roots
