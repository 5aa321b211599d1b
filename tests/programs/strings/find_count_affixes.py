# expect: (2, -1, 0, 3, 1, 4, 0, True, False, True, True, True, False, 1)
def main() -> tuple[int, int, int, int, int, int, int, bool, bool, bool, bool, bool, bool, int]:
    s = "banana"
    return (
        s.find("n"),
        s.find("x"),
        s.find(""),
        s.count("a"),
        s.count("ana"),
        "abc".count(""),
        "".count("a"),
        s.startswith("ban"),
        s.startswith("banana!"),
        s.endswith("na"),
        s.endswith(""),
        "".startswith(""),
        "a".endswith("ba"),
        s.index("a"),
    )
