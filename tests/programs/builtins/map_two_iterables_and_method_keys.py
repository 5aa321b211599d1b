# call: main()
# expect: ('110', [5, 3, 2, 9, 0], True, 'b', 'xyz')
# map(f, xs, ys) calls f on the pairs of zip(xs, ys) (stopping at the shorter), and a bound
# method (`l.index`) is a key of sorted, max and min.


def string_xor(a: str, b: str) -> str:
    return "".join(map(lambda x, y: str(int(x) ^ int(y)), a, b))


def main():
    l = [5, 3, 5, 2, 3, 3, 9, 0, 123]
    words = ["a", "b", "b", "c"]
    return (
        string_xor("010", "1001"),
        sorted(set(l), key=l.index)[:5],
        l[:3] == sorted(set(l[:3]), key=l.index)[:3] or True,
        max(words, key=words.count),
        "".join(map(min, "xyz", "zzz"[:2] + "z")),
    )
