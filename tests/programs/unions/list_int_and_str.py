# expect: (2, 'a', True)
def main() -> int:
    """A list of an int and a str: items of a union type."""
    xs = [1, "a"]
    return (len(xs), xs[1], xs[0] == 1)
