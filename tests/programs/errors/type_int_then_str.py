# expect error: type
def main() -> int:
    """A new type inside a branch: after the if, x would be an int or a str."""
    x = 0
    if x == 0:
        x = "a"
    return 1
