# expect trap: ValueError
def main() -> int:
    xs = [4, 8, 15]
    small = [x for x in xs if x < 0]
    return min(small)
