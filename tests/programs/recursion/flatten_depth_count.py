# expect: (7, 3)
def count_nodes(n: int, depth: int) -> tuple[int, int]:
    """A full binary tree of the given height: (nodes, deepest level)."""
    if depth == n:
        return 1, depth
    left, d1 = count_nodes(n, depth + 1)
    right, d2 = count_nodes(n, depth + 1)
    return left + right + 1, max(d1, d2)


def main() -> tuple[int, int]:
    return count_nodes(3, 1)
