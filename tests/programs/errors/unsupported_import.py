# expect error: unsupported
# numpy is no standard module: whether it imports depends on the environment (the fallback's).
import numpy


def main() -> int:
    return 1
