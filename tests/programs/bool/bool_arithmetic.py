# expect: [2, 5, -1, -1, 1, 1, 1, 8, 0]
def main() -> list[int]:
    t = True
    f = False
    return [t + t, t * 5, f - 1, -t, t // 1, t % 2, t ** 3, t << 3, f * 100]
