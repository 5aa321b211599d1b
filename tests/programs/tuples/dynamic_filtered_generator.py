# call: main([3, 1, 2])
# expect: ((3, 2), 2, (), True)


def main(xs):
    big = tuple(x for x in xs if x > 1)
    none = tuple(x for x in xs if x > 10)
    return big, len(big), none, none == ()
