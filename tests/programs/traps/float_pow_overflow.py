# expect trap: OverflowError
def main() -> float:
    """A float power too large for a double raises, unlike float multiplication."""
    base = 10.0
    return base ** 400
