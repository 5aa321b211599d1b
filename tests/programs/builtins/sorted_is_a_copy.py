# expect: ([5, 2, 9, 1], [1, 2, 5, 9], [9, 5, 2, 1], False)
def main() -> tuple[list[int], list[int], list[int], bool]:
    xs = [5, 2, 9, 1]
    ys = sorted(xs)
    zs = sorted(xs, reverse=True)
    ys.append(100)
    return xs, ys[:-1], zs, xs == ys
