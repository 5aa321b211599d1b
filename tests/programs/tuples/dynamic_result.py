# call: evens([5, 2, 8, 3, 4])
# expect: (2, 8, 4)


def evens(xs):
    if not xs:
        return ()
    return tuple(x for x in xs if x % 2 == 0)
