# expect: ([4, 10, 18], [(5, 'a'), (6, 'b')], 4)
def derivative(xs: list[int]) -> list[int]:
    return [i * x for i, x in enumerate(xs[1:], start=1)]


def main() -> tuple[list[int], list[tuple[int, str]], int]:
    """enumerate(xs, start=k) is enumerate(xs, k)."""
    pairs = [(i, c) for i, c in enumerate("ab", start=2 + 3)]
    last = 0
    for i, _ in enumerate([7, 8], start=2):
        last = i + 1
    return derivative([1, 4, 5, 6]), pairs, last
