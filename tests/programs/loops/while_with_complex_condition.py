# expect: (7, 25)
def main() -> tuple[int, int]:
    xs = [3, 1, 4, 1, 5, 9, 2, 6]
    i = 0
    total = 0
    while i < len(xs) and total + xs[i] <= 25:
        total += xs[i]
        i += 1
    return i, total
