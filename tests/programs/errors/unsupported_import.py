# expect error: unsupported
import os


def main() -> int:
    return 1
