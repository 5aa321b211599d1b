# expect: 73
def main() -> int:
    total = 0
    for n in range(1, 20):
        if n % 2 == 0:
            continue
        if n % 3 == 0:
            continue
        total += n
    return total
