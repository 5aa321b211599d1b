# expect error: type
def main() -> bool:
    """str < int has no meaning (TypeError in CPython)."""
    s = "a"
    return s < 1
