# expect: [1000000000, 9, 0, 1, 3037000499]
# kiln: Overflow
def isqrt(n: int) -> int:
    if n < 2:
        return n
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x


def main() -> list[int]:
    return [isqrt(10 ** 18), isqrt(99), isqrt(0), isqrt(1), isqrt(9223372036854775807)]
