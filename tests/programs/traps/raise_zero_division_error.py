# expect trap: ZeroDivisionError
def main() -> int:
    d = 0
    if d == 0:
        raise ZeroDivisionError("explicit")
    return 1
