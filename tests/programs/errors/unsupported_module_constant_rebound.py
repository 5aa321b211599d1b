# expect error: unsupported
LIMIT = 10
LIMIT = 20


def main() -> int:
    return LIMIT
