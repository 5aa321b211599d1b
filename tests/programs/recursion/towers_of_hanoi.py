# expect: (15, [(1, 2), (1, 3), (2, 3)], (1, 3))
def hanoi(n: int, src: int, dst: int, via: int, moves: list[tuple[int, int]]) -> None:
    if n == 0:
        return
    hanoi(n - 1, src, via, dst, moves)
    moves.append((src, dst))
    hanoi(n - 1, via, dst, src, moves)


def main() -> tuple[int, list[tuple[int, int]], tuple[int, int]]:
    moves: list[tuple[int, int]] = []
    hanoi(4, 1, 3, 2, moves)
    small: list[tuple[int, int]] = []
    hanoi(2, 1, 3, 2, small)
    return len(moves), small, moves[7]
