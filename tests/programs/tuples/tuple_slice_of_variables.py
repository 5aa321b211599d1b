# call: main("Venus", "Jupiter")
# expect: (('Earth', 'Mars'), ('Venus', 'Earth', 'Mars', 'Jupiter'), (), (5, 3), 2)


def main(first, last):
    planets = ("Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn")
    start, end = planets.index(first), planets.index(last)
    numbers = (9, 5, 7, 3)
    k = len(first) - 4
    return (
        planets[start + 1 : end],
        tuple(planets[start : end + 1]),
        planets[end:start],
        numbers[k::2],
        len(numbers[: k + 1]),
    )
