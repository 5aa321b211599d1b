# expect: [-3, 0, 1, 1, 2, 5, 9, 12]
def bubble_sort(xs: list[int]) -> None:
    n = len(xs)
    for i in range(n):
        swapped = False
        for j in range(n - 1 - i):
            if xs[j] > xs[j + 1]:
                xs[j], xs[j + 1] = xs[j + 1], xs[j]
                swapped = True
        if not swapped:
            break


def main() -> list[int]:
    data = [5, 1, 9, -3, 12, 0, 1, 2]
    bubble_sort(data)
    return data
