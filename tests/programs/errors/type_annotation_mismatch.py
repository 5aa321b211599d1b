# expect error: type
def main() -> int:
    """A str value for a variable annotated int."""
    x: int = "a"
    return 1
