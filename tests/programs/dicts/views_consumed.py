# call: main()
# expect: (['b', 'a', 'c', 'z'], [2, 1, 3, 0], [('b', 2), ('a', 1), ('c', 3), ('z', 0)], [('a', 1), ('b', 2), ('c', 3), ('z', 0)], 3, 6, 4, [('z', 0), ('a', 1), ('b', 2), ('c', 3)], 'a', True)
def main():
    """Dict views given to list, sorted, max, sum, len, min, any: their items in insertion order."""
    d = {"b": 2, "a": 1, "c": 3}
    d["z"] = 0
    return (
        list(d.keys()),
        list(d.values()),
        list(d.items()),
        sorted(d.items()),
        max(d.values()),
        sum(d.values()),
        len(d.keys()),
        sorted(d.items(), key=lambda kv: kv[1]),
        min(d.keys()),
        any(d.values()),
    )
