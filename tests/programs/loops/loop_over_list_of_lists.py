# expect: ([6, 15, 24], [12, 15, 18], 15)
def main() -> tuple[list[int], list[int], int]:
    m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    rows: list[int] = []
    cols = [0, 0, 0]
    trace = 0
    for r, row in enumerate(m):
        rows.append(sum(row))
        for c in range(len(row)):
            cols[c] += row[c]
        trace += row[r]
    return rows, cols, trace
