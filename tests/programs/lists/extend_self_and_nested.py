# expect: ([1, 2, 1, 2], [[1, 9], [1, 9], [7]], [], [0, 0, 0, 0, 0, 0])
def main() -> tuple[list[int], list[list[int]], list[int], list[int]]:
    """a += a doubles a; *= repeats references; *= 0 empties the list in place."""
    a = [1, 2]
    a += a
    inner = [1]
    grid = [inner]
    grid *= 2
    grid[0] += [9]
    grid += [[7]]
    e = [5, 6]
    alias = e
    e *= 0
    z = [0, 0]
    z *= 3
    return a, grid, alias, z
