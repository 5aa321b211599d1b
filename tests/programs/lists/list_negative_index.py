# expect: (50, 40, 10, [10, 20, 30, 40, -1])
def main() -> tuple[int, int, int, list[int]]:
    xs = [10, 20, 30, 40, 50]
    last = xs[-1]
    second = xs[-2]
    first = xs[-len(xs)]
    xs[-1] = -1
    return last, second, first, xs
