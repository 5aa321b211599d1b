# expect: (6.0, 0.12, 0.38, 2.67, -0.0, 3.14159, 1.5, 12, 1, 100.0, [0.33, 0.67, 1.0], -2.5, 6.0)
# round(x, n) of a float is CPython's decimal rounding: the decimal nearest the binary value,
# halves (exact ties only, as 0.125) to even, so round(2.675, 2) is 2.67; an int stays itself.
import math


def area(a: int, b: int, c: int) -> float:
    s = (a + b + c) / 2
    return round(math.sqrt(s * (s - a) * (s - b) * (s - c)), 2)


def main():
    thirds = [round(k / 3, 2) for k in range(1, 4)]
    return (
        area(3, 4, 5),
        round(0.125, 2),
        round(0.375, 2),
        round(2.675, 2),
        round(-0.001, 2),
        round(3.14159, 7),
        round(1.5, 400),
        round(12, 3),
        round(True, 0),
        round(99.996, 2),
        thirds,
        round(-2.5, 1),
        round(6.5, 0) + round(0.5, 0),
    )
