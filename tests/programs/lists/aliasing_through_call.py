# expect: ([1, 2, 3, 10, 20], 5)
def add_two(xs: list[int], a: int, b: int) -> None:
    xs.append(a)
    xs.append(b)


def main() -> tuple[list[int], int]:
    data = [1, 2, 3]
    alias = data
    add_two(alias, 10, 20)
    return data, len(data)
