# expect trap: ValueError
def main() -> list[int]:
    xs = [1, 2, 3]
    step = len(xs) - 3
    return xs[0:2:step]
