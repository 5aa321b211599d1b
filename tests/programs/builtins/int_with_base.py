# expect: [255, 31, -31, 7, 7, 35, 1000, 5, 0, 15, -1, 11, 18, 47]
def main() -> list[int]:
    """int(s, base) as CPython parses it: base 2..36, or 0 (the prefix says: 0x, 0o, 0b, else
    10); ASCII whitespace around, a sign, the base's prefix with one underscore after it,
    single underscores between digits; int(s, base=b) is the same call."""
    cases = [("ff", 16), ("0x1F", 16), (" -0x_1f\n", 0), ("0_7", 10), ("0o7", 0), ("Z", 36)]
    cases += [("1_000", 0), ("0b101", 2), ("00", 0), ("+0O17", 8), ("-1", 2), ("0b", 16)]
    values = [int(s, b) for s, b in cases]
    values.append(int("\v12\t", base=16))
    values.append(int("1n", 24))
    return values
