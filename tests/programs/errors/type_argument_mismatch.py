# expect error: type
def double(x: int) -> int:
    return x * 2


def main() -> int:
    return double("a")
