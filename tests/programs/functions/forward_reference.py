# expect: 'ok:12'
def main() -> str:
    """main calls functions defined further down the module."""
    return describe(later(5))


def describe(n: int) -> str:
    return "ok:" + str(n)


def later(n: int) -> int:
    return n + 7
