# expect: [3.0, 1.0, 0.0, 2.5, -0.0, 0.0, 9.223372036854776e+18]
def main() -> list[float]:
    n = 3
    t = True
    minus_zero = -0.0
    zero = 0
    return [float(n), float(t), float(False), float(2.5), float(minus_zero), float(-zero),
            float(9223372036854775807)]
