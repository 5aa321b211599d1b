# expect trap: IndexError
def main() -> int:
    xs = [1, 2]
    xs.pop()
    xs.pop()
    return xs.pop()
