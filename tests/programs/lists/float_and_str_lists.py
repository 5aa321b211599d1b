# expect: ([0.5, 1.25, 2.0], 3.75, ['b', 'a', 'c', 'b'], 'bacb')
def main() -> tuple[list[float], float, list[str], str]:
    fs = [0.5, 1.25]
    fs.append(2.0)
    ws = ["b", "a"] + ["c", "b"]
    joined = ""
    for w in ws:
        joined += w
    return fs, sum(fs), ws, joined
