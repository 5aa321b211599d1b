# expect error: unsupported
def scale(x: int, k: int = 2) -> int:
    return x * k


def main() -> int:
    return scale(2, 3)
