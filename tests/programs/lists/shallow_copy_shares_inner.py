# expect: ([[1, 9], [2]], [[1, 9], [2], [3]])
def main() -> tuple[list[list[int]], list[list[int]]]:
    a = [[1], [2]]
    b = a[:]
    b.append([3])
    b[0].append(9)
    return a, b
