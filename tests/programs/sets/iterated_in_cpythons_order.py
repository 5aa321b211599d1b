# call: main()
# expect: ([0, 2, 3, 5, 9, 123], [8, 16, 2, 1], [100, -1, -2], 85, [False, True])
# A set of ints (or bools) made by set(xs) and iterated at once (list(set(xs)), a for loop or a
# comprehension over set(xs)) comes out in CPython's own order, which depends on the ints'
# hashes and the order xs adds them (colliding ones probe further): kiln simulates the table.


def unique(l: list[int]) -> list[int]:
    return list(set(l))


def main():
    order = []
    for x in set([8, 16, 1, 2, 8, 16]):
        order.append(x)
    total = 0
    for v in set(range(0, 8, 1)):
        total = total * 2 + v % 2
    negative = [y for y in set([-1, 100, -2, -1])]
    return (unique([5, 3, 5, 2, 3, 3, 9, 0, 123]), order, negative, total,
            list(set([True, False, True])))
