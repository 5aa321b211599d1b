# expect: ([1, -2, 3, -4], [-4, 3, -2, 1], ['ab', 'yz', 'cd', 'x'], ['bb', 'a', 'c'], [(2, 'a'), (2, 'c'), (1, 'b')], [[0], [2, 0], [1, 1]], [3, 2, 1])
def weight(s: str) -> int:
    return len(s) % 2


def main():
    xs = [3, -2, 1, -4]
    by_abs = sorted(xs, key=abs)
    by_abs_desc = sorted(xs, key=lambda v: abs(v), reverse=True)
    words = sorted(["x", "ab", "yz", "cd"], key=weight)  # equal keys keep their order
    stable_desc = sorted(["a", "bb", "c"], key=len, reverse=True)
    pairs = sorted([(2, "a"), (2, "c"), (1, "b")], key=lambda p: (-p[0], 0))
    nested = sorted([[2, 0], [0], [1, 1]], key=lambda l: sum(l) + 10 * len(l))
    chained = sorted(sorted([1, 2, 3]), key=lambda v: -v)
    return by_abs, by_abs_desc, words, stable_desc, pairs, nested, chained
