# expect: [1628.8946267774422, 1024.0, 12.5]
def grow(principal: float, rate: float, years: int) -> float:
    for _ in range(years):
        principal = principal * (1.0 + rate)
    return principal


def main() -> list[float]:
    return [grow(1000.0, 0.05, 10), grow(1.0, 1.0, 10), grow(100.0, -0.5, 3)]
