# expect: ['ababab', '', '', 'ababab', 'abc', 'xyxyxyxyx', '']
def main() -> list[str]:
    ab = "ab"
    n = 3
    minus = -2
    return [ab * n, "-" * 0, "x" * minus, n * ab, "a" + "b" + "c", "xy" * 4 + "x", "" * 5]
