# expect trap: ValueError
def digit_value(c: str, base: int) -> int:
    return int(c, base)


def main() -> int:
    """A base outside 2..36 (and not 0) is ValueError, before the string is looked at."""
    return digit_value("1", 2) + digit_value("1", 37)
