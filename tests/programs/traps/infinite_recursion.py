# expect trap: RecursionError
def down(n: int) -> int:
    return down(n + 1) + 1


def main() -> int:
    return down(0)
