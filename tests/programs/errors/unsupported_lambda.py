# expect error: unsupported
def main() -> int:
    """lambda is outside the subset."""
    double = lambda x: x * 2
    return 3
