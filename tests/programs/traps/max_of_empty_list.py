# expect trap: ValueError
def main() -> float:
    """max() of an empty list raises."""
    xs: list[float] = []
    return max(xs)
