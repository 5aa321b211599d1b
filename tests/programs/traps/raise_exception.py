# expect trap: Exception
def main() -> int:
    n = 3
    if n > 2:
        raise Exception("too big")
    return n
