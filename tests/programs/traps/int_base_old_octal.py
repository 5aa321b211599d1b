# expect trap: ValueError
def main() -> int:
    """With base 0 a leading zero is only allowed in a zero ("0_0", "00"): "07" is
    ValueError, as the literal 07 is a SyntaxError."""
    total = int("0_0", 0) + int("00", 0)
    return total + int("07", 0)
