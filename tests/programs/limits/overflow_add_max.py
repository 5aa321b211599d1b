# expect trap: Overflow
def main() -> int:
    top = 9223372036854775807
    one = 1
    return top + one
