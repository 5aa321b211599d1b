# expect error: unsupported
def main() -> int:
    xs = [1, 2, 3]
    first, *rest = xs
    return first
