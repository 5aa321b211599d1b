# expect error: unsupported
def main() -> int:
    """Functions are defined at module level only."""
    def inner(x: int) -> int:
        return x + 1
    return 1
