# expect: [[1, 2, 3], [4, 50, 6], [7, 8, 90]]
def main() -> list[list[int]]:
    grid = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    middle = grid[1]
    middle[1] *= 10
    grid[-1][-1] += 81
    return grid
