# expect trap: OverflowError
def main() -> str:
    """chr() converts to a C int first: 2**31 overflows before the range check."""
    n = 2 ** 31
    return chr(n)
