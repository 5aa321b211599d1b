# expect: [54321, -321, 0, 1]
def reverse_int(n: int) -> int:
    sign = -1 if n < 0 else 1
    n = abs(n)
    r = 0
    while n:
        r = r * 10 + n % 10
        n //= 10
    return sign * r


def main() -> list[int]:
    return [reverse_int(12345), reverse_int(-1230), reverse_int(0), reverse_int(1000)]
