# expect error: unsupported
def main() -> int:
    """zip() is supported in for loops and comprehensions only."""
    z = zip([1], [2])
    return 1
