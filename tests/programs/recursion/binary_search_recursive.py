# expect: [0, 4, -1, 7, -1]
def search(xs: list[int], target: int, lo: int, hi: int) -> int:
    if lo > hi:
        return -1
    mid = (lo + hi) // 2
    if xs[mid] == target:
        return mid
    if xs[mid] < target:
        return search(xs, target, mid + 1, hi)
    return search(xs, target, lo, mid - 1)


def main() -> list[int]:
    xs = [2, 3, 5, 7, 11, 13, 17, 19]
    return [search(xs, t, 0, len(xs) - 1) for t in [2, 11, 4, 19, 20]]
