# call: stats([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
# expect: (5.0, 4.0, 2.0)
def mean(xs):
    return sum(xs) / len(xs)


def stats(xs):
    m = mean(xs)
    var = sum([(x - m) ** 2 for x in xs]) / len(xs)
    return m, var, var ** 0.5
