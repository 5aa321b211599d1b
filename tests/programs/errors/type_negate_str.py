# expect error: type
def main() -> str:
    """Unary minus needs a number."""
    s = "abc"
    return -s
