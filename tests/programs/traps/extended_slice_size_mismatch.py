# expect trap: ValueError
def main() -> list[int]:
    a = [1, 2, 3, 4, 5]
    a[::2] = [0, 0]
    return a
