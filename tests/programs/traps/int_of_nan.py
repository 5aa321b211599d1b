# expect trap: ValueError
def main() -> int:
    big = 1e308 * 10.0
    nan = big - big
    return int(nan)
