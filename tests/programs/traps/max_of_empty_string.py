# expect trap: ValueError
def main() -> str:
    """max() of an empty string raises."""
    s = "kiln"
    return max(s[4:])
