# expect trap: OverflowError
def main() -> int:
    """1e308 * 10.0 is inf (no error); int(inf) raises."""
    big = 1e308 * 10.0
    return int(big)
