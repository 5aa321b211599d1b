# expect error: unsupported
def main() -> int:
    """Generator expressions are outside the subset (a list comprehension is in)."""
    n = 5
    return sum(x * x for x in range(n))
