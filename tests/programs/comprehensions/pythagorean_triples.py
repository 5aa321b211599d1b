# expect: [(3, 4, 5), (5, 12, 13), (6, 8, 10), (8, 15, 17), (9, 12, 15)]
def main() -> list[tuple[int, int, int]]:
    n = 20
    return [(a, b, c) for a in range(1, n) for b in range(a, n) for c in range(b, n)
            if a * a + b * b == c * c]
