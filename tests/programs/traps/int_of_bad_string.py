# expect trap: ValueError
def main() -> int:
    """int() of a string that is not a number raises."""
    text = "abc"
    return int(text)
