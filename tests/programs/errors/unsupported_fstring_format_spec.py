# expect error: unsupported
def main() -> str:
    """An f-string with a format spec (or a !r conversion) is outside the subset."""
    n = 3
    return f"n={n:>4}"
