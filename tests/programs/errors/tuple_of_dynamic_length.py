# call: main([3, 1, 2])
# expect error: unsupported: tuple of a dynamic length


def main(xs):
    return tuple(x for x in xs if x > 1)
