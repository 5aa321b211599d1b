# expect error: unsupported
def total(*args: int) -> int:
    return len(args)


def main() -> int:
    return total(1, 2, 3)
