# expect: [1.0, -0.0, 0.0, -0.0, 0.0, -1.0]
def main() -> list[float]:
    """% takes the divisor's sign, also for zero results and tiny operands."""
    tiny = -1e-20
    zero = 0.0
    return [tiny % 1.0, zero % -1.0, -zero % 1.0, 5.0 % -5.0, -5.0 % 5.0, 1e-20 % -1.0]
