# expect: [1000, 1000000, -12]
def main() -> list[int]:
    """int() of a string accepts single underscores between digits, as literals do."""
    texts = ["1_000", "1_000_000", " -1_2 "]
    return [int(t) for t in texts]
