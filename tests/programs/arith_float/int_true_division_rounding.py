# expect: [3002399751580331.0, 1286742750677284.8, 511.99999999999994, 123456789012345.67, 9.223372036854776e+18]
# kiln: Unsupported
def main() -> list[float]:
    """int / int is correctly rounded, even when the ints do not fit in a double."""
    a = 9007199254740993
    b = 4611686018427387905
    return [a / 3, a / 7, b / a, 123456789012345679 / 1000, 9223372036854775807 / 1]
