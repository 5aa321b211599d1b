# expect: 10000000000000000000
# kiln: Overflow
import math


def main() -> int:
    return math.ceil(1e19)
