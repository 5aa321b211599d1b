# expect trap: IndexError
def fill(xs: list[int], n: int) -> None:
    for i in range(n):
        xs.append(i)


def main() -> int:
    xs: list[int] = []
    fill(xs, 5)
    return xs[5]
