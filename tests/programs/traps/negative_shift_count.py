# expect trap: ValueError
def main() -> int:
    """A negative shift count raises."""
    k = -1
    return 8 << k
