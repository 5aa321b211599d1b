# expect error: unsupported
def main() -> list[int]:
    a = [1, 2, 3, 4]
    k = 2
    a[::k] = [0, 0]
    return a
