# expect error: type
def add(a: int, b: int) -> int:
    return a + b


def main() -> int:
    return add(1, 2, 3)
