# call: sort_third([5, 6, 3, 4, 8, 9, 2])
# expect: [2, 6, 3, 4, 8, 9, 5]
def sort_third(l):
    """ Values at indices divisible by three are sorted; the others stay. """
    thirds = sorted([l[i] for i in range(0, len(l), 3)])
    out = list(l)
    for k in range(len(thirds)):
        out[3 * k] = thirds[k]
    return out
