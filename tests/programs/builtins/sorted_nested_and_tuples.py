# expect: ([[0, 9], [1, 1], [1, 2], [1, 2, 0]], [(3, 'a'), (2, 'c'), (2, 'b')])
def main() -> tuple[list[list[int]], list[tuple[int, str]]]:
    grid = [[1, 2], [0, 9], [1, 2, 0], [1, 1]]
    pairs = [(2, "b"), (3, "a"), (2, "c")]
    return sorted(grid), sorted(pairs, reverse=True)
