# call: main()
# expect: ([1, 2], 1, 27)
from typing import Optional


def main():
    a = [1]
    o: Optional[list[int]] = a if len(a) else None
    a.append(2)
    b = None
    for x in [3, 1, 2]:
        if b is None or x < b:
            b = x
    c = None
    while c is None or c < 10:
        c = 1 if c is None else c * 3
    return o, b, c
