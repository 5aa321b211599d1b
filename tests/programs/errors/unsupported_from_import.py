# expect error: unsupported
from math import gcd


def main() -> int:
    return 1
