# expect: [1024, -27, 1, 7, 1000000000000000000, -9223372036854775808, 1, 0]
def main() -> list[int]:
    out: list[int] = []
    for base, exp in [(2, 10), (-3, 3), (0, 0), (7, 1), (10, 18), (-2, 63), (-1, 100), (0, 5)]:
        out.append(base ** exp)
    return out
