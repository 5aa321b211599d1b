# expect: ([1, 2, 3], [0, 0, 0, 0], [], [7, 7], [1, 2, 1, 2, 1, 2], [])
def main() -> tuple[list[int], list[int], list[int], list[int], list[int], list[int]]:
    a = [1, 2]
    n = 3
    neg = -1
    return a + [3], [0] * 4, a * 0, 2 * [7], a * n, a * neg
