# expect: [(1, 2), (-1, -1), (0, 0)]
def find(grid: list[list[int]], target: int) -> tuple[int, int]:
    for r in range(len(grid)):
        for c in range(len(grid[r])):
            if grid[r][c] == target:
                return r, c
    return -1, -1


def main() -> list[tuple[int, int]]:
    g = [[1, 2, 3], [4, 5, 6]]
    return [find(g, 6), find(g, 7), find(g, 1)]
