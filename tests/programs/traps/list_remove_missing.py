# expect trap: ValueError
def main() -> list[int]:
    xs = [1, 2]
    xs.remove(3)
    return xs
