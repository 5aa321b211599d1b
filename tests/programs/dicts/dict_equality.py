# expect: (True, True, False, False, True, True, False, True)
# dicts are equal when they hold the same keys, each with an equal value, in any order (== and
# !=, as CPython's); values may be lists, strs, ints, bools.
def main():
    h: dict[str, int] = {}
    for w in "a b b a".split():
        if w in h:
            h[w] += 1
        else:
            h[w] = 1
    empty: dict[str, int] = {}
    groups: dict[int, list[str]] = {}
    for w in ["ab", "c", "de"]:
        if len(w) not in groups:
            groups[len(w)] = []
        groups[len(w)].append(w)
    return (
        h == {"b": 2, "a": 2},
        empty == {},
        h == {"a": 2},
        h == {"a": 2, "c": 2},
        h != {"a": 2, "b": 3},
        groups == {1: ["c"], 2: ["ab", "de"]},
        groups == {2: ["de", "ab"], 1: ["c"]},
        {True: "x"} == {1 == 1: "x"},
    )
