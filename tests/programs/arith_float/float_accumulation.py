# expect: (0.9999999999999999, False, 0.30000000000000004)
def main() -> tuple[float, bool, float]:
    total = 0.0
    for _ in range(10):
        total += 0.1
    return total, total == 1.0, 0.1 + 0.2
