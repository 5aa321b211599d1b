# call: main([3, 8, 5])
# expect: ((8,), (3, 8), (), (3, 8, 5), (3, 8, 5), (3, 8, 5, 0), [(1,), (1, 2)])


def ends(xs):
    if len(xs) > 2:
        return (xs[1],)
    if xs:
        return (xs[0], xs[-1])
    return ()


def main(xs):
    acc = ()
    for x in xs:
        acc = acc + (x,)
    grown = tuple(xs) if xs else ()
    kept = tuple(xs) or ()
    pairs = [(1,), (1, 2)]
    return ends(xs), ends(xs[:2]), ends([]), acc, grown, kept + (0,), pairs
