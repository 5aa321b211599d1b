# call: f([3, 1, 2], "héy")
# expect: (18, 4, 'y', 5, [3, 1, 2, 4], 10, 3)
def f(xs: list[int], s: str) -> tuple[int, int, str, int, list[int], int, int]:
    # loop targets keep their last value; an empty loop leaves them alone; continue advances;
    # a list is read again each step (it grows while it is iterated)
    total = 0
    for i in range(10):
        if i % 3:
            continue
        total += i
    x = -1
    for x in xs:
        if x == 2:
            xs.append(4)
    c = "?"
    for c in s:
        pass
    last = 5
    for last in range(5, 0):
        last = 100
    k = 0
    for k in range(10, -10, -3):
        break
    n = 0
    for n, v in enumerate(xs):
        pass
    return (total, x, c, last, xs, k, n)
