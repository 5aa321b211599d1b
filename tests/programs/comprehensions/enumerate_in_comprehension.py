# expect: ([1, 3, 4], [0, 2, 6, 12])
def main() -> tuple[list[int], list[int]]:
    xs = [1, 5, 2, 9, 7]
    big_positions = [i for i, x in enumerate(xs) if x > 4]
    weighted = [i * x for i, x in enumerate([2, 2, 3, 4])]
    return big_positions, weighted
