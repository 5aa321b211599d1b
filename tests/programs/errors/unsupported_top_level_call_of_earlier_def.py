# expect error: unsupported
# The print calls the first definition of f, the tests the second: kiln keeps only the last.
def f(n: int) -> int:
    return n


print(f(1))


def f(n: int) -> int:
    return n + 1


def main() -> int:
    return f(1)
