# expect trap: ValueError
def main() -> str:
    """0x10FFFF is the last code point; one past it raises."""
    n = 1114111
    return chr(n) + chr(n + 1)
