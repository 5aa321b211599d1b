# call: main(1.0)
# expect trap: ValueError
import math


def main(x):
    return math.isclose(x, 2.0, rel_tol=-x)
