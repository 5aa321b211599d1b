# expect trap: ValueError
def main() -> int:
    return pow(2, 5, 0)
