# expect: ([(0, 'x'), (1, 'y'), (2, 'z')], 3, [0, 2])
def main() -> tuple[list[tuple[int, str]], int, list[int]]:
    out: list[tuple[int, str]] = []
    for i, ch in enumerate("xyz"):
        out.append((i, ch))
    count = 0
    for idx, value in enumerate([10, 20, 30]):
        count += idx
    evens = [i for i, v in enumerate([4, 5, 6]) if v % 2 == 0]
    return out, count, evens
