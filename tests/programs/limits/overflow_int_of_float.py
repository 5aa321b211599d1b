# expect trap: Overflow
def main() -> int:
    """int(1e20) is exact in Python but needs more than 64 bits."""
    x = 1e20
    return int(x)
