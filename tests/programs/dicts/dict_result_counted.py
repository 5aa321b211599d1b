# expect: 3
def counts(word: str) -> dict:
    """A dict result, returned to a kiln caller (the caller of the program calls main)."""
    d = {}
    for ch in word:
        d[ch] = d.get(ch, 0) + 1
    return d


def main() -> int:
    return len(counts("abca"))
