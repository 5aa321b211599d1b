# call: main("Pluto")
# expect trap: ValueError


def main(planet):
    planets = ("Mercury", "Venus", "Earth", "Mars")
    return planets.index(planet)
