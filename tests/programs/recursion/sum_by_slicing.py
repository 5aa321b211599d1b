# call: total([4, 8, 15, 16, 23, 42])
# expect: 108
def total(xs):
    if len(xs) == 0:
        return 0
    return xs[0] + total(xs[1:])
