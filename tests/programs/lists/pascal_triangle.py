# expect: [[1], [1, 1], [1, 2, 1], [1, 3, 3, 1], [1, 4, 6, 4, 1], [1, 5, 10, 10, 5, 1]]
def pascal(n: int) -> list[list[int]]:
    rows: list[list[int]] = []
    for r in range(n):
        row = [1] * (r + 1)
        for k in range(1, r):
            row[k] = rows[r - 1][k - 1] + rows[r - 1][k]
        rows.append(row)
    return rows


def main() -> list[list[int]]:
    return pascal(6)
