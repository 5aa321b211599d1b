# expect trap: ValueError
import math


def main() -> int:
    return math.factorial(3 - 5)
