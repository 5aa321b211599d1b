# expect error: type
def main() -> int:
    """A new type inside a loop: the next iteration would read either type."""
    x = 0
    for i in range(3):
        x = 0.5
    return 1
