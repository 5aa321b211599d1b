# expect trap: IndexError
def main() -> list[int]:
    xs = [0] * 3
    xs[3] = 1
    return xs
