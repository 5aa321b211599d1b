# expect: [-7, 0, 1, 2, 2, 3, 8, 9, 10]
def merge(a: list[int], b: list[int]) -> list[int]:
    out: list[int] = []
    i = 0
    j = 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out + a[i:] + b[j:]


def merge_sort(xs: list[int]) -> list[int]:
    if len(xs) < 2:
        return xs
    mid = len(xs) // 2
    return merge(merge_sort(xs[:mid]), merge_sort(xs[mid:]))


def main() -> list[int]:
    return merge_sort([8, 3, 2, 10, -7, 2, 9, 0, 1])
