# expect: (13, 4)
def add_vec(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]


def main() -> tuple[int, int]:
    pos = (0, 0)
    for step in [(3, 1), (5, -2), (5, 5)]:
        pos = add_vec(pos, step)
    return pos
