# expect: ([3, 2, 1], 'cba', [4, 3, 2, 1, 0], ['z', 'y'])
def main() -> tuple[list[int], str, list[int], list[str]]:
    out: list[int] = []
    for x in reversed([1, 2, 3]):
        out.append(x)
    s = ""
    for c in reversed("abc"):
        s += c
    idx: list[int] = []
    for i in reversed(range(5)):
        idx.append(i)
    return out, s, idx, list(reversed(["y", "z"]))
