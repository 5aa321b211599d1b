# expect error: type
def main() -> int:
    """Lists are indexed by int, not str."""
    xs = [1, 2, 3]
    return xs["0"]
