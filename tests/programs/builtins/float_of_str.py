# call: main()
# expect: ([1.5, -0.25, 1000.0, 10.5, 0.001, 2.5, -0.0, 120000.0], True, True)
# float(s) of computed strings, as CPython parses them: whitespace, signs, underscores between
# digits, exponents, inf and infinity in any case.


def main() -> tuple[list[float], bool, bool]:
    texts = [" 1.5\n", "-.25", "1e3", "1_0.5", "1E-3", "2.50", "-0", "12e4"]
    big = float("IN" + "F")
    small = float("-Infinit" + "y")
    return ([float(t) for t in texts], big > 1e308, small < -1e308)
