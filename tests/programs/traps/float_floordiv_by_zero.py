# expect trap: ZeroDivisionError
def main() -> float:
    x = -2.5
    zero = -0.0
    return x // zero
