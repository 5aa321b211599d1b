# call: main((("a", 1), ("b", 2), ("a", 3)))
# expect: ([('a', 3), ('b', 2)], 1)


def main(pairs):
    d = dict(pairs)
    return [(k, v) for k, v in d.items()], len(dict(((1, 2), (1, 2))))
