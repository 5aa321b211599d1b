# call: main(["b", "a", "c"])
# expect: (True, False, True, True, False, True, True, True, False, True, False, True)


def main(words):
    t = tuple(sorted(words))
    empty = tuple(w for w in words if w == "z")
    return (
        t == ("a", "b", "c"),
        t == ("a", "b"),
        t != ("a",),
        empty == (),
        t == (),
        () == empty,
        t < ("b",),
        ("a", "b") < t,
        t == [],
        t == tuple(["a", "b", "c"]),
        t == (1, 2, 3),
        t > empty,
    )
