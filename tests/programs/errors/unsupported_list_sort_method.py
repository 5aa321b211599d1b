# expect error: unsupported
def main() -> list[int]:
    xs = [3, 1, 2]
    xs.sort()
    return xs
