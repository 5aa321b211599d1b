# call: unique([3, 1, 3, 2, 1, 5, 2, 3])
# expect: [3, 1, 2, 5]
def unique(xs):
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out
