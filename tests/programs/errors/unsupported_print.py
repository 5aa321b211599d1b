# expect error: unsupported
def main() -> int:
    n = 3
    print(n)
    return n
