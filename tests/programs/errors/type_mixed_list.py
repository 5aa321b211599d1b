# expect error: type
def main() -> int:
    """A list's elements share one type."""
    xs = [1, "a"]
    return len(xs)
