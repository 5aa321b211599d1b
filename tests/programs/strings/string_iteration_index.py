# expect: [0, 3, 5]
def main() -> list[int]:
    """Positions where a character repeats the one before it, found two ways."""
    s = "aabccdde"
    by_index = [i for i in range(1, len(s)) if s[i] == s[i - 1]]
    by_pairs: list[int] = []
    prev = ""
    for i, c in enumerate(s):
        if c == prev:
            by_pairs.append(i - 1)
        prev = c
    assert [i - 1 for i in by_index] == by_pairs
    return by_pairs
