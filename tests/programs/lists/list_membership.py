# expect: [True, True, True, True, False, True]
def main() -> list[bool]:
    """in compares by value, including lists inside lists."""
    xs = [3, 1, 4, 1, 5]
    return [3 in xs, 7 not in xs, "b" in ["a", "b"], [1] in [[0], [1]], 2.5 in [1.0, 2.0], 2.0 in [1.0, 2.0]]
