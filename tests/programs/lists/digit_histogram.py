# expect: [1, 2, 1, 0, 0, 2, 0, 0, 0, 1]
def main() -> list[int]:
    counts = [0] * 10
    n = 9511502
    while n > 0:
        counts[n % 10] += 1
        n //= 10
    return counts
