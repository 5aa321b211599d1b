# expect: [3, 1, -4, 1, -4, -1, 3, -1, 0, 0, -1, 4, -2, 0]
def main() -> list[int]:
    pairs = [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 3), (-1, 5), (6, -3)]
    out: list[int] = []
    for a, b in pairs:
        out.append(a // b)
        out.append(a % b)
    return out
