# expect: [True, True, True, True, False, True, True, True, False, True]
def main() -> list[bool]:
    empty: list[int] = []
    a = [1, 2, 3]
    return [a == [1, 2, 3], [1, 2] < [1, 3], [1, 2] < [1, 2, 0], empty < [0], a != a[:],
            [[1, 2], [3]] == [[1, 2], [3]], ["a"] < ["b"], [2] > [1, 9, 9], a > a, [1.5] <= [1.5]]
