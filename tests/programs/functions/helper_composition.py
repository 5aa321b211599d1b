# expect: 2025
def square(x: int) -> int:
    return x * x


def triangle(n: int) -> int:
    return n * (n + 1) // 2


def sum_of_cubes(n: int) -> int:
    total = 0
    for k in range(1, n + 1):
        total += square(k) * k
    return total


def main() -> int:
    assert sum_of_cubes(9) == square(triangle(9))
    return sum_of_cubes(9)
