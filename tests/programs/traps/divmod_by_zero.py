# expect trap: ZeroDivisionError
def main() -> int:
    n = 0
    q, r = divmod(5, n)
    return q + r
