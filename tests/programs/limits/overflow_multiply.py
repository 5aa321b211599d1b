# expect trap: Overflow
def main() -> int:
    """2**62 * 4 == 2**64 does not fit in 64 bits: kiln stops rather than wrap."""
    x = 2 ** 62
    return x * 4
