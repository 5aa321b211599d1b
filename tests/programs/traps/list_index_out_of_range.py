# expect trap: IndexError
def main() -> int:
    xs = [1, 2, 3]
    total = 0
    for i in range(4):
        total += xs[i]
    return total
