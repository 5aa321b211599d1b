# expect: [-40.0, 23.0, 86.0, 149.0, 212.0]
def to_fahrenheit(c: int) -> float:
    return c * 9 / 5 + 32


def main() -> list[float]:
    return [to_fahrenheit(c) for c in range(-40, 101, 35)]
