# expect: [(1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]
def main() -> list[tuple[int, int]]:
    """The inner for clause depends on the outer one's variable."""
    n = 4
    return [(i, j) for i in range(n) for j in range(i)]
