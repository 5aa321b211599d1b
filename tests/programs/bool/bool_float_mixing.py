# expect: [0.5, 1.5, 0.0, 2.5]
def main() -> list[float]:
    t = True
    f = False
    return [t / 2, t + 0.5, f * 2.5, 2.5 ** t]
