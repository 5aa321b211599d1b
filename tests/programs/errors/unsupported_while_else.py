# expect error: unsupported
def main() -> int:
    n = 0
    while n < 3:
        n += 1
    else:
        n = 10
    return n
