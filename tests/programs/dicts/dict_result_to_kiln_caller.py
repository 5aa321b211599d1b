# expect: (True, True, [('a', 2)])
# a function returns a dict to kiln's own functions (the check function compares it: any order)
def histogram(test):
    counts = {}
    for w in test.split(" "):
        if w != "":
            counts[w] = counts.get(w, 0) + 1
    best = max(counts.values()) if counts else 0
    return {w: n for w, n in counts.items() if n == best}


def main():
    h = histogram("b a b a c")
    return h == {"a": 2, "b": 2}, histogram("") == {}, list(histogram("a a").items())
