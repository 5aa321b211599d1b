# expect trap: Unsupported
def main() -> bool:
    big = 1e308 * 10.0
    nan = big - big
    xs = [1.0, nan]
    ys = [1.0, nan]
    return xs < ys
