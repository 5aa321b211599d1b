# expect error: unsupported
# math.gcd is no kiln function: the import alone would be a no-op, its use is not.
from math import gcd


def main() -> int:
    return gcd(4, 6)
