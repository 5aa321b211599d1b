# expect trap: ValueError
def main() -> list[str]:
    """An empty separator is ValueError even where maxsplit allows no split."""
    sep = ""
    return "abc".rsplit(sep, 0)
