# expect trap: AssertionError
# A failing top-level assert stops the module: no function is ever called.
def double(n: int) -> int:
    return n + n


def main() -> int:
    return double(4)


assert double(3) == 5
