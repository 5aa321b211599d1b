# call: main(["apple", "avocado", "banana", "cherry", "blueberry"])
# expect: ([('a', ['apple', 'avocado']), ('b', ['banana', 'blueberry']), ('c', ['cherry'])], 3, 7, 7, [('x', 7)])


def main(words):
    groups = {}
    for w in words:
        groups.setdefault(w[0], []).append(w)
    shared = []
    first = groups.setdefault("z", shared)
    first.append("zebra")
    counts = {}
    counts.setdefault("x", 7)
    seen = counts.setdefault("x", 9)
    again = counts.setdefault("x", len(words))
    return (
        [(k, v) for k, v in groups.items() if k != "z"],
        len(groups) - len(shared),
        seen,
        again,
        [(k, v) for k, v in counts.items()],
    )
