# expect error: unsupported
def main() -> str:
    """str.title is outside the subset."""
    s = "kiln"
    return s.title()
