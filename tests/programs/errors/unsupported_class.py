# expect error: unsupported
class Point:
    pass


def main() -> int:
    return 1
