# expect trap: ZeroDivisionError
def main() -> float:
    base = 0.0
    exp = -1.0
    return base ** exp
