# expect: ([5, 5, 0, 9223372036854775807, 1], [2.5, 0.0, 0.0, 1e-300])
def main() -> tuple[list[int], list[float]]:
    neg = -5
    flag = True
    ints = [abs(neg), abs(5), abs(0), abs(-9223372036854775807), abs(flag)]
    floats = [abs(-2.5), abs(-0.0), abs(0.0), abs(-1e-300)]
    return ints, floats
