# expect trap: ZeroDivisionError
def main() -> float:
    x = 1.5
    zero = 0.0
    return x / zero
