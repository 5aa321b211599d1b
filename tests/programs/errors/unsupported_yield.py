# expect error: unsupported
def count_up(n: int) -> int:
    for i in range(n):
        yield i
    return 0


def main() -> int:
    return 1
