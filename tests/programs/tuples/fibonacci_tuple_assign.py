# expect: [0, 1, 1, 2, 3, 5, 8, 13, 12586269025]
def fib(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def main() -> list[int]:
    return [fib(k) for k in range(8)] + [fib(50)]
