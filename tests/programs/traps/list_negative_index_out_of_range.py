# expect trap: IndexError
def main() -> int:
    xs = [1, 2, 3]
    k = -4
    return xs[k]
