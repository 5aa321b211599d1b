# expect trap: UnboundLocalError
def main() -> int:
    """y is assigned only when n > 5; the other path reads it unassigned."""
    n = 3
    if n > 5:
        y = 1
    return y + n
