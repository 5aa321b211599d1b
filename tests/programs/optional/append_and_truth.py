# call: main()
# expect: ([None, 5, 100, 0], True, True)
from typing import Optional


def g(xs: list[int]) -> Optional[int]:
    if not xs:
        return
    return xs[0]


def main():
    out = []
    for xs in [[], [5], [0]]:
        v = g(xs)
        out.append(v)
        if v:
            out.append(100)
    return out, [g([]), g([2])] == [None, 2], g([3]) in [None, 3]
