# expect error: unsupported
def main() -> int:
    """set is not in kiln Python yet."""
    seen = {1, 2, 3}
    return len(seen)
