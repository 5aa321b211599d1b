# expect: ([[0, 5], [0, 5]], [[7, 0, 0], [7, 0, 0], [7, 0, 0]], [[1, 0], [0, 0]])
def main() -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    row = [0, 0]
    grid = [row, row]
    grid[0][1] = 5
    repeated = [[0] * 3] * 3
    repeated[2][0] = 7
    separate = [[0] * 2 for _ in range(2)]
    separate[0][0] = 1
    return grid, repeated, separate
