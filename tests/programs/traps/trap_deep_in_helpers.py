# expect trap: ZeroDivisionError
def average(xs: list[int]) -> int:
    return sum(xs) // len(xs)


def spread(groups: list[list[int]]) -> list[int]:
    return [average(g) for g in groups]


def main() -> list[int]:
    return spread([[1, 2, 3], [4], []])
