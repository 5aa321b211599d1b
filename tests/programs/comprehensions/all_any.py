# expect: (True, False, True, False, True, False, True, False, True, True)
def main() -> tuple[bool, bool, bool, bool, bool, bool, bool, bool, bool, bool]:
    xs = [2, 4, 6, 8]
    a = all(x % 2 == 0 for x in xs)
    b = any(x > 8 for x in xs)
    c = all(x > 100 for x in [])
    d = any(x for x in [0, 0])
    e = any([0, 0, 3])
    f = all("kiln") and all([""])
    g = all(int(c) % 2 == 1 for c in str(1357))
    h = any(i * j == 7 for i in range(1, 4) for j in range(1, 4) if i != j)
    i = all(xs[k - 1] <= xs[k] for k in range(1, len(xs)))
    j = any(len(s) > 3 for s in ["ab", "kiln"])
    return a, b, c, d, e, f, g, h, i, j
