# call: main([4, 7, 1, 9, 7])
# expect: (5, 4, 7, 7, (7, 1), (7, 9, 1, 7, 4), True, False, (4, 7, 1, 9, 7, 0, 1), (4, 1, 4, 1), [1, 4, 7, 7, 9], 28, 9, 1, [8, 14, 2, 18, 14], 3, (4, 7), 'a-b-c', True, 2)


def main(xs):
    t = tuple(xs)
    xs.append(100)  # t keeps the items it was made of
    total = 0
    for v in t:
        total += v
    a, b = t[:2]  # ValueError unless two items
    twice = tuple(x for x in xs if x < 5) * 2
    u = t
    u += (0, 1)  # a new tuple: t is unchanged
    s = tuple("abc")
    return (
        len(t),
        t[0],
        t[-1],
        t[1],
        t[1:3],
        t[::-1],
        7 in t,
        8 in t,
        u,
        twice,
        sorted(t),
        total,
        max(t),
        min(t),
        [2 * v for v in t],
        b - a,
        t[:2],
        "-".join(s),
        bool(t),
        len(set(t) - {9, 1, 7}) + 1,
    )
