# call: main()
# expect: (True, True, False, True, True)
# A literal of ints and floats compared with a list of ints (or floats): by value, as CPython.


def evens(n: int) -> list[int]:
    return [i for i in range(0, n, 2)]


def halves(n: int) -> list[float]:
    return [i / 2 for i in range(n)]


def main():
    return (
        evens(6) == [0, 2.0, 4],
        halves(3) == [0, 0.5, 1],
        evens(4) == [0, 2.5],
        [0.0, -2] != evens(4),
        (1, 2.0) == (1.0, 2),
    )
