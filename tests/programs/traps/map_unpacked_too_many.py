# call: main()
# expect trap: ValueError
# Too many values to unpack from map(int, ...): ValueError, as from a bad int().


def main() -> int:
    a, b = map(int, "1-2-3".split("-"))
    return a + b
