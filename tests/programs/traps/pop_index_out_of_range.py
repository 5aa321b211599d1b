# expect trap: IndexError
def main() -> int:
    """pop(i) with i == len(xs) raises."""
    xs = [1, 2, 3]
    return xs.pop(3)
