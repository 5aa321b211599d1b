# expect error: unsupported
def main() -> int:
    """A generator expression is only in the subset as the argument of a consuming builtin."""
    n = 5
    g = (x * x for x in range(n))
    return 1
