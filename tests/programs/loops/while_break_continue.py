# expect: (27, 10)
def main() -> tuple[int, int]:
    total = 0
    i = 0
    while True:
        i += 1
        if i % 3 == 0:
            continue
        if i > 9:
            break
        total += i
    return total, i
