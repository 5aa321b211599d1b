# call: main("eabcdzzzz", "dddzzzzzzzddeddabc", [5, 3, 5, 2, 3, 3, 9, 0, 123, 1])
# expect: (True, 6, [0, 1, 2, 3, 5, 9, 123], [3, 5, 9, 100, 123], True, [4, 1, 0], (0, 4), 0, True, True)
def main(s0, s1, l):
    a = set(s0) == set(s1)
    b = len(set(s0.lower()))
    c = sorted(list(set(l)))
    ret = set()
    for e in l:
        if e > 2:
            ret.add(e)
    alias = ret
    alias.add(100)
    alias.add(3)
    vowels = {"a", "e", "i", "o", "u", "A"}
    d = "e" in vowels and "b" not in vowels
    sq = {x * x % 5 for x in l}
    m = min(set(l)), max(sq)
    return a, b, c, sorted(ret), d, sorted(sq, reverse=True), m, len(set()), bool(ret), set(l) != {1, 2}
