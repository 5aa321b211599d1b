# expect: ([1, 2], [1, 2, 99], 5)
def rebind(xs: list[int], n: int) -> list[int]:
    """Rebinding a parameter does not touch the caller's variable."""
    xs = xs + [99]
    n = n + 1
    return xs


def main() -> tuple[list[int], list[int], int]:
    a = [1, 2]
    k = 5
    b = rebind(a, k)
    return a, b, k
