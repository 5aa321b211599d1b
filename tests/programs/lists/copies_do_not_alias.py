# expect: ([1, 2, 3, 99], [1, 2, 3], [1, 2, 3], [1, 2, 3], [3, 2, 1])
def main() -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    a = [1, 2, 3]
    by_slice = a[:]
    by_list = list(a)
    by_concat = a + []
    rev = a[::-1]
    a.append(99)
    return a, by_slice, by_list, by_concat, rev
