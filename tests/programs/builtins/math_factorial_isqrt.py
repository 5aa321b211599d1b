# expect: ([1, 1, 2, 6, 24, 120], 2432902008176640000, [0, 1, 1, 1, 2, 3, 10, 3037000499], True)
# math.factorial(n) and math.isqrt(n) of ints, exactly as CPython's (ValueError for a negative
# n; a factorial past 64 bits is left to CPython, the fallback trap Overflow).
import math
from math import isqrt


def is_square(n: int) -> bool:
    r = math.isqrt(n)
    return r * r == n


def main():
    return (
        [math.factorial(i) for i in range(6)],
        math.factorial(20),
        [isqrt(n) for n in [0, 1, 2, 3, 4, 15, 100, 9223372036854775806]],
        is_square(144),
    )
