# expect: [True, True, False, True, False, False, False, True, False, True]
def main() -> list[bool]:
    """x.is_integer() of a float: finite and without a fraction (False for inf and nan)."""
    inf = float("inf")
    xs = [2.0, -0.0, 0.5, 1e300, inf, -inf, inf - inf, 2.0**63, -1e-300, 3 / 1.5]
    return [x.is_integer() for x in xs]
