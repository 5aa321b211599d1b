# expect: 'ÉCOLE'
# kiln: Unsupported
def main() -> str:
    """Case mapping beyond ASCII needs Unicode's tables: kiln leaves it to CPython."""
    return "école".upper()
