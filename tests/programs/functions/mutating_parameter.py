# expect: ([0, 0, 0, 4, 5], 3)
def zero_prefix(xs: list[int], n: int) -> int:
    changed = 0
    for i in range(n):
        if xs[i] != 0:
            xs[i] = 0
            changed += 1
    return changed


def main() -> tuple[list[int], int]:
    data = [1, 2, 3, 4, 5]
    n = zero_prefix(data, 3)
    return data, n
