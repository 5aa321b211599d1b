# expect trap: ValueError
def main() -> int:
    total = 0
    step = 0
    for i in range(0, 10, step):
        total += i
    return total
