# expect: [1, 2, 3, 4, 8, 12, 16, 32]
def main() -> list[int]:
    """Appending during a for loop: the loop sees the new elements."""
    xs = [1, 2, 3]
    for x in xs:
        if x < 10:
            xs.append(x * 4)
    return xs
