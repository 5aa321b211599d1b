# expect: ('n', 'k', 'k', 'l', 'n')
def main() -> tuple[str, str, str, str, str]:
    """Negative indices count from the end."""
    s = "kiln"
    return s[-1], s[-len(s)], s[0], s[-2], s[len(s) - 1]
