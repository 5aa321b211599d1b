# expect: (17, [(0, 'k'), (1, 'i'), (2, 'l'), (3, 'n')])
def main() -> tuple[int, list[tuple[int, str]]]:
    xs = [5, 3, 2]
    weighted = 0
    for i, x in enumerate(xs):
        weighted += (i + 1) * x
    letters: list[tuple[int, str]] = []
    for pos, ch in enumerate("kiln"):
        letters.append((pos, ch))
    return weighted, letters
