# expect trap: Unsupported
def main() -> bool:
    """`in` also tests identity first, so nan in [nan] is True in CPython."""
    big = 1e308 * 10.0
    nan = big - big
    return nan in [0.5, nan]
