# expect: [True, True, True, True, False, True, False, False, True]
def main() -> list[bool]:
    big = 1e308 * 10.0
    nan = big - big
    return [big > 1e308, -big < -1e308, big == big, big + 1.0 == big,
            nan == nan, nan != nan, nan < 1.0, nan > 1.0, 1.0 / big == 0.0]
