# expect: [1, 1, 120, 3628800, 2432902008176640000]
def factorial(n: int) -> int:
    if n <= 1:
        return 1
    return n * factorial(n - 1)


def main() -> list[int]:
    return [factorial(0), factorial(1), factorial(5), factorial(10), factorial(20)]
