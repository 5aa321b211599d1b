# expect: 125250
def sum_to(n: int) -> int:
    """Recursion 500 deep stays inside the default limits."""
    if n == 0:
        return 0
    return n + sum_to(n - 1)


def main() -> int:
    return sum_to(500)
