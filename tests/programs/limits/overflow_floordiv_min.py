# expect trap: Overflow
def main() -> int:
    low = -9223372036854775807 - 1
    d = -1
    return low // d
