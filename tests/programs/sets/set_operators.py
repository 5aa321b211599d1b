# call: main()
# expect: ([2, 3], [1, 2, 3, 4, 5], [1], [1, 4, 5], [3, 2], True, False, True, ['b'], [3, 5, 7])
# Set operators and methods (each a new set): & | - ^, intersection/union/difference/
# symmetric_difference of any iterable, issubset/issuperset/isdisjoint; consumed by sorted.


def main():
    a = {3, 1, 2}
    b = set([4, 2, 3, 5, 5])
    c = set("abc") & {"b", "z"}
    inter = a & b
    return (
        sorted(inter),
        sorted(a | b),
        sorted(a - b),
        sorted(a ^ b),
        sorted(set([1, 2, 3]).intersection([3, 2, 9]), reverse=True),
        {2, 3}.issubset(a),
        a.issuperset([1, 7]),
        a.isdisjoint({9, 8}),
        sorted(c),
        sorted(set([7, 3]).union({5}).difference([1]).symmetric_difference(set())),
    )
