# expect: (['b', 'a', 'c'], [3, 10, 2], [('x', 1), ('y', 2)], 2, [3, 1, 2], 'a')
def main():
    """Keys keep their first position; a new value for an old key does not move it."""
    d = {"b": 1, "a": 2}
    d["c"] = 2
    d["b"] = 3
    d["a"] *= 5
    pairs = dict([("x", 1), ("y", 2), ("x", 1)])
    counts: dict[int, int] = {}
    for n in [3, 1, 3, 2]:
        counts[n] = counts.get(n, 0) + 1
    alias = d
    alias["a"] = 10
    best = ""
    for k in d:
        if best == "" or d[k] > d[best]:
            best = k
    return [k for k in d], [d[k] for k in d], [(k, v) for k, v in pairs.items()], counts[3], [k for k in counts], best
