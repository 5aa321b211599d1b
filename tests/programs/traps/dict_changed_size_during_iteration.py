# expect trap: RuntimeError
def main() -> int:
    d = {1: 1, 2: 2}
    total = 0
    for k in d:
        total += k
        if k == 1:
            d[3] = 3
    return total
