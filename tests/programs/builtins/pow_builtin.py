# expect: (2, 1, 8, 0, 4, -2, 24, 2.0)
# pow(x, y) is x ** y; pow(b, e, m) of ints is (b ** e) % m, with Python's % (the result takes
# the modulus's sign).
def main() -> tuple[int, int, int, int, int, int, int, float]:
    n, p = 1101, 101
    return (pow(2, n, p), pow(3, 0, 7), pow(2, 3), pow(5, 0, 1), pow(-2, 3, 6), pow(2, 3, -5),
            pow(2, 10, 1000), pow(4, 0.5))
