# expect: [[2], [3], [2, 4], [5], [2, 3, 6], [7], [2, 4, 8]]
def main() -> list[list[int]]:
    """Divisors above 1 of 2..8: an inner comprehension per outer element."""
    top = 8
    return [[d for d in range(2, n + 1) if n % d == 0] for n in range(2, top + 1)]
