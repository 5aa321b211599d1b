# call: main((10, 4, 6, 9), (5, 2, 3, 3))
# expect: ((2, 2, 2, 3), (14, 10, 15), ((6, 8), (10, 12)), (10, 4, 6, 9), (4, 6), (9, 6, 4, 10), (), ('a', 'b', 'c'), 6, 9, (0, 2, 4, 6), 3, [4, 9], True, (-6, -3, -4, -4), ((4, 6, 9, 10), (9, 6, 4, 10), (10, 9, 6, 4)), [3, 3])


def division_elements(t1, t2):
    return tuple(a // b for a, b in zip(t1, t2))


def add_pairwise(t):
    return tuple(i + j for i, j in zip(t, t[1:]))


def add_nested(t1, t2):
    return tuple(tuple(a + b for a, b in zip(x, y)) for x, y in zip(t1, t2))


def main(t1, t2):
    k = 2
    picked = [t1[i] for i in range(1, 4, 2)]
    return (
        division_elements(t1, t2),
        add_pairwise(t1),
        add_nested(((1, 2), (3, 4)), ((5, 6), (7, 8))),
        tuple(t1),
        t1[1:3],
        t1[::-1],
        tuple(),
        tuple(c for c in "abc"),
        t1[k],
        t1[-k + 1],
        tuple([2 * i for i, _ in enumerate(t1)]),
        len(set(len(s) for s in ["a", "bb", "a", "ccc"])),
        picked,
        single(),
        inversion_elements(t2),
        sorted_items(t1),
        [t2[j] for j in range(len(t2)) if j > 0 and t2[j] != 2],
    )


def pairwise_products(t):
    return tuple(i * j for i, j in zip(t, t[1:]))


def single():
    return pairwise_products((12,)) == () and len([x for x in ()]) == 0


def inversion_elements(t):
    return tuple(list(map(lambda x: ~x, list(t))))


def sorted_items(t):
    return tuple(sorted(t)), tuple(list(reversed(t))), tuple(sorted(t, key=lambda v: -v))
