# call: main()
# expect: 0.30000000000000004
# kiln: Unsupported
# More than 15 significant digits: one double operation would not be exact, so kiln leaves
# the parse to the CPython fallback.


def main() -> float:
    return float("0.3" + "00000000000000044")
