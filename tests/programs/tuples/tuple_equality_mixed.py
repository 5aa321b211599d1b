# expect: [True, False, True, False]
def point(x: int, y: int) -> tuple[int, int]:
    return x, y


def main() -> list[bool]:
    origin = point(0, 0)
    return [origin == (0, 0), point(1, 2) == point(2, 1), point(1, 2) < point(1, 3), point(3, 4) != (3, 4)]
