# expect: (-1, 'z', 1, 5, 0, 2, 'b', 0, 'b', '-', 3)
def main() -> tuple[int, str, int, int, int, int, str, int, str, str, int]:
    """min/max(xs, default=d): d where xs is empty, else min/max(xs); d is evaluated either
    way (after xs); also of a generator, a set, a dict view, a dict (its keys) and a tuple."""
    empty: list[int] = []
    freq = {"a": 1, "b": 2}
    words: dict[str, int] = {}
    return (
        min(empty, default=-1),
        max("", default="z"),
        min([3, 1], default=7),
        max((x for x in [2, 5]), default=0),
        max(words.values(), default=0),
        max(freq.values(), default=0),
        max({"a", "b"}, default="c"),
        min(set(empty), default=0),
        max(freq, default=""),
        max(words, default="-"),
        max((3, 1, 2), default=0),
    )
