# expect: [3.5, -3.5, 2.0, 0.3333333333333333, -0.0, 0.0, 1e-05]
def main() -> list[float]:
    zero = 0
    minus_one = -1
    return [7 / 2, -7 / 2, 6 / 3, 1 / 3, zero / minus_one, zero / 5, 1 / 100000]
