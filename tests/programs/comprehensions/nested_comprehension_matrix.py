# expect: ([[0, 0, 0], [0, 1, 2], [0, 2, 4]], [[1, 4], [2, 5], [3, 6]])
def main() -> tuple[list[list[int]], list[list[int]]]:
    table = [[i * j for j in range(3)] for i in range(3)]
    m = [[1, 2, 3], [4, 5, 6]]
    transposed = [[row[c] for row in m] for c in range(len(m[0]))]
    return table, transposed
