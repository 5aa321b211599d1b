# call: main([1, 2, 3])
# expect trap: IndexError


def main(xs):
    t = tuple(x for x in xs if x > 1)
    return t[2]
