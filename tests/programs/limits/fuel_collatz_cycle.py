# limits: fuel=2000
# expect trap: FuelExhausted
def spin(n: int) -> int:
    """Collatz, but 4 is sent back to 5: a cycle that never reaches 1."""
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        if n == 4:
            n = 5
    return n


def main() -> int:
    return spin(7)
