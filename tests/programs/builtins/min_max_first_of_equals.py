# expect: ([-0.0, -0.0], [0.0, 0.0])
def main() -> tuple[list[float], list[float]]:
    """min and max return the first of several equal elements."""
    a = [-0.0, 0.0]
    b = [0.0, -0.0]
    return [min(a), max(a)], [min(b), max(b)]
