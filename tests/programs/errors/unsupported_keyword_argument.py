# expect error: unsupported
def scale(x: int, k: int) -> int:
    return x * k


def main() -> int:
    return scale(2, k=3)
