# expect error: unsupported
def main() -> int:
    """Iterating a set follows CPython's hash order: kiln asks for sorted(s)."""
    total = 0
    for x in {3, 1, 2}:
        total = total * 10 + x
    return total
