# expect error: unsupported
def main() -> list[int]:
    xs = [3, 1, 2]
    xs.insert(0, 5)
    return xs
