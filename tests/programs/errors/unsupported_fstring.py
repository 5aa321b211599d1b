# expect error: unsupported
def main() -> str:
    """f-strings are outside the subset."""
    n = 3
    return f"n={n}"
