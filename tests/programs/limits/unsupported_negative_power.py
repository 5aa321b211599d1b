# expect trap: Unsupported
def main() -> int:
    """int ** negative int is a float in Python; kiln's int ** int cannot say so."""
    e = -1
    return 2 ** e
