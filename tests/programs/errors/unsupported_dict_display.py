# expect error: unsupported
def main() -> int:
    """dict is not in kiln Python yet."""
    counts = {"a": 1, "b": 2}
    return counts["a"]
