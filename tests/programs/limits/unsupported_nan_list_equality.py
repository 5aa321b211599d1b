# expect trap: Unsupported
def main() -> bool:
    """CPython compares list elements by identity first: [nan] == [nan] is True here."""
    big = 1e308 * 10.0
    nan = big - big
    return [nan] == [nan]
