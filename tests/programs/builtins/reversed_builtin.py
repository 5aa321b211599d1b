# expect: ([3, 2, 1], ['c', 'b', 'a'], [4, 3, 2, 1, 0], [1, 2, 3])
def main() -> tuple[list[int], list[str], list[int], list[int]]:
    xs = [1, 2, 3]
    back = list(reversed(xs))
    back_str = list(reversed("abc"))
    back_range = list(reversed(range(5)))
    return back, back_str, back_range, xs
