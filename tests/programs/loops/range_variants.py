# expect: [[0, 1, 2, 3, 4], [2, 3, 4, 5, 6, 7], [10, 7, 4, 1], [], [-5, -4, -3, -2], [], [0, 4, 8], [-1, -3, -5, -7]]
def main() -> list[list[int]]:
    n = 5
    step = -3
    return [list(range(n)), list(range(2, 8)), list(range(10, 0, step)), list(range(0)),
            list(range(-5, -1)), list(range(5, 0)), list(range(0, 10, 4)), list(range(-1, -8, -2))]
