# call: main()
# expect: (['int 3', 'str ab', 'none', 'int -1'], 7, 5)
# isinstance, type() and `is None` narrow a union variable where they hold: its value there.


def parse(k: int):
    if k == 0:
        return 3
    if k == 1:
        return "ab"
    if k == 2:
        return None
    return -1


def describe(k: int) -> str:
    v = parse(k)
    if isinstance(v, int):
        return "int " + str(v)
    if v is None:
        return "none"
    return "str " + v


def main():
    total = 0
    for k in range(4):
        v = parse(k)
        if type(v) == int and v > 0:
            total += v
        elif isinstance(v, str):
            total += len(v) + 2
    w = parse(1)
    n = 0
    if not isinstance(w, str):
        n = -1
    else:
        n = len(w.upper()) + 3
    return ([describe(k) for k in range(4)], total, n)
