# expect: None
def main() -> None:
    """A function that returns nothing gives None."""
    xs = [1, 2]
    xs.append(3)
    if len(xs) > 5:
        return
