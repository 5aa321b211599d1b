# call: main(2, 0.1)
# expect: (12.566370614359172, 2.718281828459045, 6.283185307179586, True, 8.0, 0.25, 1.0, True, 0.0, True, True, False, True, False, True, False, 3.141592653589793)
import math
from math import pi


def area(r):
    return math.pi * r * r


def main(n, x):
    return (
        area(n),
        math.e,
        math.tau,
        math.inf > 1e308,
        math.pow(n, 3),
        math.pow(2.0, -n),
        math.pow((math.inf - math.inf), 0),
        math.pow(0.0, -math.inf) == math.inf,
        math.pow(2, -2000),
        math.isclose(x * 3, 0.3),
        math.isclose(area(n), 12.56, rel_tol=0.001),
        math.isclose(12.0, 12.5, abs_tol=0.1),
        math.isclose(12.0, 12.5, abs_tol=0.5, rel_tol=0.0),
        math.isclose(math.inf, 1e308, rel_tol=1.0),
        math.isclose(math.inf, math.inf),
        math.isclose((math.inf - math.inf), (math.inf - math.inf)),
        pi,
    )
