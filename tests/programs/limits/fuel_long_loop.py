# limits: fuel=1000
# expect trap: FuelExhausted
def main() -> int:
    """Ends under CPython, but needs far more than 1000 steps."""
    total = 0
    for i in range(100000):
        total += i % 7
    return total
