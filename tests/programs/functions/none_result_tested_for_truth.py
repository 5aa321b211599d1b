# expect: (0, 3, True, [])
# A function that returns nothing (a stub left with its docstring) returns None, which is false
# where its truth is tested: `if`, `not`, `assert not`, a comprehension's filter, `and`/`or` in
# a test.
def is_valid(s: str) -> bool:
    """Return whether s is valid."""


def count(words: list[str]) -> int:
    n = 0
    for w in words:
        if is_valid(w):
            n += 1
    return n


def main():
    assert not is_valid("a")
    m = 0
    for w in ["x", "y", "z"]:
        if is_valid(w) or is_valid(w + w):
            m += 10
        else:
            m += 1
    return (count(["a", "b"]), m, not is_valid(""), [w for w in ["q"] if is_valid(w)])
