# expect error: unsupported
from math import sqrt


def main() -> int:
    return 1
