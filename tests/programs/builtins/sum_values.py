# expect: (15, 0, 2, 3.75, -6, 9223372036854775807)
def main() -> tuple[int, int, int, float, int, int]:
    ints = [1, 2, 3, 4, 5]
    none: list[int] = []
    flags = [True, False, True]
    floats = [0.5, 1.25, 2.0]
    big = [9223372036854775807, -5, 5]
    return sum(ints), sum(none), sum(flags), sum(floats), sum([-1, -2, -3]), sum(big)
