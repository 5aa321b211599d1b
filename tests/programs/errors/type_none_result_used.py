# expect error: type
def log(xs: list[int]) -> None:
    xs.append(1)


def main() -> int:
    xs: list[int] = []
    return log(xs) + 1
