# expect error: unsupported
def main() -> int:
    xs = [1, 2, 3]
    if (n := len(xs)) > 2:
        return n
    return 0
