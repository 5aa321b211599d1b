# expect: (1.25, True, True, 1000.5)
# float("inf") and float of any literal string: the float CPython's float() makes of it.
def main() -> tuple[float, bool, bool, float]:
    best = float("inf")
    worst = float('-inf')
    for v in [3.5, 1.25, 2.0]:
        best = min(best, v)
    return (best, worst < -1e308, float("-Infinity") == worst, float(" 1_000.5 "))
