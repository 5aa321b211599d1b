# expect: [15, 45, 75]
def main() -> list[int]:
    """Several if filters on one comprehension: all must hold."""
    limit = 100
    return [n for n in range(limit) if n % 3 == 0 if n % 5 == 0 if n % 2 == 1]
