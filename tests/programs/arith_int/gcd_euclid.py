# expect: 1021
def gcd(a: int, b: int) -> int:
    while b != 0:
        a, b = b, a % b
    return a


def main() -> int:
    return gcd(1071, 462) + gcd(17, 5) * 1000
