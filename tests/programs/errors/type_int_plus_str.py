# expect error: type
def main() -> str:
    """int + str has no meaning (TypeError in CPython)."""
    n = 3
    return n + "1"
