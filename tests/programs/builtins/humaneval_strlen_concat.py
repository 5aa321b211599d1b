# call: summary(["a", "bb", "", "kiln"])
# expect: ('abbkiln', 7, 4, '')
def concatenate(strings):
    out = ""
    for s in strings:
        out += s
    return out


def summary(strings):
    joined = concatenate(strings)
    return joined, len(joined), max([len(s) for s in strings]), min(strings)
