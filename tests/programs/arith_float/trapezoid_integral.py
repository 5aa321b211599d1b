# expect: 9.005000000000003
def f(x: float) -> float:
    return x * x


def integrate(a: float, b: float, n: int) -> float:
    h = (b - a) / n
    total = (f(a) + f(b)) / 2
    for i in range(1, n):
        total += f(a + i * h)
    return total * h


def main() -> float:
    return integrate(0.0, 3.0, 30)
