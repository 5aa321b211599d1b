# expect trap: ValueError
def main() -> list[int]:
    a = [1, 2, 3]
    a[::0] = []
    return a
