# expect: [1.414213562373095, 3.0, 100000.0, 0.5]
def sqrt(x: float) -> float:
    guess = x / 2.0
    for _ in range(20):
        guess = (guess + x / guess) / 2.0
    return guess


def main() -> list[float]:
    return [sqrt(2.0), sqrt(9.0), sqrt(1e10), sqrt(0.25)]
