# expect error: unsupported
def main() -> int:
    """A nested function that reads a variable of its enclosing function (a closure)."""
    n = 3

    def inner(x: int) -> int:
        return x + n

    return inner(1)
