# expect error: unsupported
def counts(word: str) -> dict:
    """A dict result: a value of the host is never a dict, so none may leave a function."""
    d = {}
    for ch in word:
        d[ch] = d.get(ch, 0) + 1
    return d


def main() -> int:
    return len(counts("abca"))
