# expect trap: ZeroDivisionError
def main() -> int:
    n = 0
    print("ratio", 10 // n)
    return n
