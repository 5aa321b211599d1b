# expect: (10, [0, 1, 2], 'z')
def main() -> tuple[int, list[int], str]:
    """The comprehension variable is local to the comprehension."""
    x = 10
    ys = [x for x in range(3)]
    c = "z"
    letters = [c for c in "abc"]
    assert letters == ["a", "b", "c"]
    return x, ys, c
