# expect trap: ZeroDivisionError
def main() -> list[int]:
    xs = [2, 1, 0]
    return sorted(xs, key=lambda v: 10 // v)
