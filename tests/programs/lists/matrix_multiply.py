# expect: [[58, 64], [139, 154]]
def matmul(a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
    rows = len(a)
    cols = len(b[0])
    out: list[list[int]] = []
    for i in range(rows):
        row: list[int] = []
        for j in range(cols):
            acc = 0
            for k in range(len(b)):
                acc += a[i][k] * b[k][j]
            row.append(acc)
        out.append(row)
    return out


def main() -> list[list[int]]:
    return matmul([[1, 2, 3], [4, 5, 6]], [[7, 8], [9, 10], [11, 12]])
