# expect: 2
# The print calls the first definition of f (a copy of it, bound then), the tests the second.
def f(n: int) -> int:
    return n


print(f(1))


def f(n: int) -> int:
    return n + 1


def main() -> int:
    return f(1)
