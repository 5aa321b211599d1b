# expect trap: Overflow
def main() -> int:
    one = 1
    k = 64
    return one << k
