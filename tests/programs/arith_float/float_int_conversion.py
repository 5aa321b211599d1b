# expect: ([2, -2, 0, 1000000000000000, 10, -1000000000000000000], [7.0, -3.0, 9007199254740992.0, 1.0, 2.5])
def main() -> tuple[list[int], list[float]]:
    ints = [int(2.9), int(-2.9), int(-0.5), int(1e15), int(2.5 * 4), int(-1e18)]
    floats = [float(7), float(-3), float(9007199254740993), float(True), float(2.5)]
    return ints, floats
