# expect trap: ZeroDivisionError
def main() -> int:
    total = 0
    for d in [3, 2, 1, 0]:
        total += 12 // d
    return total
