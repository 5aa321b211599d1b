# expect: 2520
def gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def main() -> int:
    result = 1
    for k in range(1, 11):
        result = result * k // gcd(result, k)
    return result
