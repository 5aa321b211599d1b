# expect error: type
def main() -> bool:
    xs = [1]
    return xs[0] < None
