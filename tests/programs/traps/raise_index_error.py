# expect trap: IndexError
def get(xs: list[int], i: int) -> int:
    if i >= len(xs):
        raise IndexError("custom index check")
    return xs[i]


def main() -> int:
    return get([1, 2], 1) + get([1, 2], 2)
