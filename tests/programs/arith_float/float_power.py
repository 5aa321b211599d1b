# expect: [1024.0, 2.0, 0.25, -8.0, 1.0, 2.25, 1.4142135623730951, 3.0]
def main() -> list[float]:
    """float ** int, float ** float, int ** float."""
    two = 2.0
    return [two ** 10, 4.0 ** 0.5, two ** -2, (-two) ** 3, 0.0 ** 0, 1.5 ** 2, two ** 0.5, 9 ** 0.5]
