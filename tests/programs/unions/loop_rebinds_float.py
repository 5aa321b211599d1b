# expect: 0.5
def main() -> int:
    """A new type inside a loop: the next iteration reads an int or a float (a union)."""
    x = 0
    for i in range(3):
        x = 0.5
    return x
