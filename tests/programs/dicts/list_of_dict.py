# expect: ([3, 1, 7], [7, 1, 3], ['b', 'a', 'c'], True, [3, 1, 7, 9], 3)
# list(d) and reversed(d) of a dict: a new list of its keys in insertion order, as CPython (the
# new list is not the dict's: appending to it leaves the dict alone)
def keys_of(counts: dict[str, int]) -> list[str]:
    return list(counts)


def main():
    d = {3: "x", 1: "y", 7: "z"}
    ks = list(d)
    rs = list(reversed(d))
    names = keys_of({"b": 1, "a": 2, "c": 0})
    more = list(d)
    more.append(9)
    return ks, rs, names, ks == list(d.keys()), more, len(d)
