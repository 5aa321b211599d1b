# expect error: unsupported
LIMIT = 10


def main() -> int:
    return 1
