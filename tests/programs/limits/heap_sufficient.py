# limits: heap_words=4096
# expect: ([0, 1, 2, 3, 4], [0, 1, 4, 9, 16], 'abcabc')
def main() -> tuple[list[int], list[int], str]:
    """A few small objects fit in a 4096-word arena."""
    xs = list(range(5))
    squares = [x * x for x in xs]
    return xs, squares, "abc" * 2
