# expect error: type
def main() -> int:
    xs = [1, 2]
    ys = xs + 1
    return len(ys)
