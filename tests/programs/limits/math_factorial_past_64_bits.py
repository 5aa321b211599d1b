# expect: 51090942171709440000
# kiln: Overflow
import math


def main() -> int:
    return math.factorial(21)
