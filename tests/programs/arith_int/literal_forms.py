# expect: ([255, 15, 11, 1000000, 0, 7], [1000.0, 0.25, 150.0, 1e-07])
def main() -> tuple[list[int], list[float]]:
    """Hex, octal, binary and underscored int literals; float literals with exponents."""
    ints = [0xFF, 0o17, 0b1011, 1_000_000, 00, 0x_7]
    floats = [1e3, 25e-2, 1.5E2, .0000001]
    return ints, floats
