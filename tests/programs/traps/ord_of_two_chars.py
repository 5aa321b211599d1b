# expect trap: TypeError
def main() -> int:
    """ord() needs a string of exactly one character."""
    s = "ab"
    return ord(s)
