# expect trap: ValueError
def main() -> int:
    """Whitespace alone is not a number."""
    s = "   "
    return int(s)
