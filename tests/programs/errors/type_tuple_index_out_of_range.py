# expect error: type
def main() -> int:
    """A constant index past a tuple's arity."""
    t = (1, 2)
    return t[2]
