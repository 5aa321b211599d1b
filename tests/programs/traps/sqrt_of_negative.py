# expect trap: ValueError
import math


def main() -> float:
    return math.sqrt(-1e-300)
