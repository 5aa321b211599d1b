# expect: 'a'
def main() -> int:
    """A new type inside a branch: after the if, x is an int or a str (a union)."""
    x = 0
    if x == 0:
        x = "a"
    return x
