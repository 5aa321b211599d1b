# expect trap: ZeroDivisionError
def main() -> int:
    n = 17
    d = n - 17
    return n % d
