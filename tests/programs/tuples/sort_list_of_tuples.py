# expect: [(1, 'z'), (2, 'a'), (2, 'b'), (3, 'a')]
def main() -> list[tuple[int, str]]:
    """Tuples sort element by element."""
    pairs = [(2, "b"), (3, "a"), (1, "z"), (2, "a")]
    return sorted(pairs)
