# expect: ([0, 2, 2, 0, -2, 3, -2, 7, 4503599627370497], 5, 1, ['0b0', '0b1', '-0b1', '0b101', '-0b110'], '0b1', '111')
def main():
    """round(x) of a float rounds halves to even and gives an int; bin() of ints and bools."""
    xs = [0.5, 1.5, 2.5, -0.5, -1.5, 2.675, -2.3, 7.0, 4503599627370497.0]
    r = [round(x) for x in xs]
    return r, round(5), round(True), [bin(v) for v in [0, 1, -1, 5, -6]], bin(True), bin(7)[2:]
