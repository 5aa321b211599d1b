# call: main()
# expect: (('Saturn', 'Uranus'), ('Venus',), (), (), True, True, False, ('Venus', 'Earth', 'Mars', 'Jupiter', 'Saturn'))


def between(planet1, planet2):
    planets = ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"]
    if planet1 not in planets or planet2 not in planets:
        return ()
    i, j = planets.index(planet1), planets.index(planet2)
    if i > j:
        i, j = j, i
    return tuple(planets[i + 1 : j])


def main():
    a = between("Jupiter", "Neptune")
    return (
        a,
        between("Earth", "Mercury"),
        between("Earth", "Earth"),
        between("Mars", "Pluto"),
        a == ("Saturn", "Uranus"),
        between("Earth", "Mercury") == ("Venus",),
        a == ["Saturn", "Uranus"],
        between("Mercury", "Uranus"),
    )
