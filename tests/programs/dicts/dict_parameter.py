# call: main()
# expect: (True, False, 3, [('a', 2), ('b', 1), ('c', 1)])
# A dict passed to a function: the callee reads it and changes it in place (the caller sees it).
# (A dict result stays unsupported: a value of the host is never a dict.)


def all_lower(d: dict) -> bool:
    if not d:
        return False
    return all(k.islower() for k in d)


def count_into(d: dict, word: str) -> int:
    for ch in word:
        d[ch] = d.get(ch, 0) + 1
    return len(d)


def main():
    counts = {"a": 1}
    n = count_into(counts, "abc")
    return (all_lower(counts), all_lower({"A": 1}), n, list(counts.items()))
