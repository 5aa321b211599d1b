# expect trap: OverflowError
import math


def main() -> int:
    return math.floor(-1e308 * 10)
