# expect trap: ZeroDivisionError
def main() -> float:
    x = 7.0
    n = 0
    return x % n
