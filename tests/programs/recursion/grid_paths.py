# expect: [1, 2, 6, 20, 70, 252]
def paths(r: int, c: int) -> int:
    if r == 0 or c == 0:
        return 1
    return paths(r - 1, c) + paths(r, c - 1)


def main() -> list[int]:
    return [paths(n, n) for n in range(6)]
