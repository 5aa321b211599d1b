# expect trap: Unsupported
def main() -> int:
    total = 0
    for e in range(3, -3, -1):
        total += 10 ** e
    return total
