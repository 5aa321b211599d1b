# expect: [-4.0, 0.5, -4.0, -0.5, 3.0, -1.5, 2.0, 2.0, -1.0, 2.0, 10.0, 0.25]
def main() -> list[float]:
    out: list[float] = []
    for a, b in [(-7.5, 2.0), (7.5, -2.0), (-7.5, -2.0), (7.0, 2.5), (-1.0, 3.0), (5.25, 0.5)]:
        out.append(a // b)
        out.append(a % b)
    return out
