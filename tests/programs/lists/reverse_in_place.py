# expect: ([6, 5, 4, 3, 2, 1], [9])
def reverse_in_place(xs: list[int]) -> None:
    i = 0
    j = len(xs) - 1
    while i < j:
        xs[i], xs[j] = xs[j], xs[i]
        i += 1
        j -= 1


def main() -> tuple[list[int], list[int]]:
    a = [1, 2, 3, 4, 5, 6]
    b = [9]
    reverse_in_place(a)
    reverse_in_place(b)
    return a, b
