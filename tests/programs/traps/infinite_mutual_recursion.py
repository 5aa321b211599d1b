# expect trap: RecursionError
def ping(n: int) -> int:
    return pong(n + 1)


def pong(n: int) -> int:
    return ping(n + 1)


def main() -> int:
    return ping(0)
