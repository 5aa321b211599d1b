# call: main("Mars", ["b", "a", "b"])
# expect: (3, 0, 1, 2, 1, 0, 1)


def main(planet, words):
    planets = ("Mercury", "Venus", "Earth", "Mars", "Jupiter")
    t = tuple(words)
    empty = tuple(w for w in words if w == "z")
    return (
        planets.index(planet),
        planets.count("Pluto"),
        t.index("a"),
        t.count("b"),
        (1, 2, 2).index(2),
        empty.count("a"),
        (3, 1, 3).count(1),
    )
