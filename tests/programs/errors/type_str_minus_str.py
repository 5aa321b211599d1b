# expect error: type
def main() -> str:
    """str supports + and *, not -."""
    s = "abc"
    return s - "c"
