# expect: [(1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]
def main() -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    for i in range(4):
        for j in range(10):
            if j >= i:
                break
            pairs.append((i, j))
    return pairs
