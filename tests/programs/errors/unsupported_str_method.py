# expect error: unsupported
def main() -> str:
    """str methods are outside the subset."""
    s = "kiln"
    return s.upper()
