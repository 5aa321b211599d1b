# expect: 123456.5
def combine(a: int, b: int, c: int, d: int, e: int, f: int, g: float) -> float:
    return a * 100000 + b * 10000 + c * 1000 + d * 100 + e * 10 + f + g


def main() -> float:
    return combine(1, 2, 3, 4, 5, 6, 0.5)
