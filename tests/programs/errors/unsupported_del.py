# expect error: unsupported
def main() -> int:
    xs = [1, 2, 3]
    del xs[0]
    return len(xs)
