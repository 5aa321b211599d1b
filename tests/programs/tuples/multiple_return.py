# expect: [(-4, 3), (3, 2), (-4, -3), (3, -2)]
def divmod_pair(a: int, b: int) -> tuple[int, int]:
    return a // b, a % b


def main() -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in [(-17, 5), (17, 5), (17, -5), (-17, -5)]:
        q, r = divmod_pair(a, b)
        out.append((q, r))
    return out
