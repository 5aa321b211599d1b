# expect: (27, 111)
def steps(n: int) -> int:
    count = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        count += 1
    return count


def main() -> tuple[int, int]:
    best = 1
    best_steps = 0
    for n in range(1, 30):
        s = steps(n)
        if s > best_steps:
            best = n
            best_steps = s
    return best, best_steps
