# expect: ([9, 0, 1, 2, 3, 4], [7, 9, 0, 1, 2, 8, 3, 4], [0, 1, 5, 6, 2, 3, 4, 5], [['x', 'y'], ['a']], [1, 2, 3], ['b', 'c', 'a'], [2.5, 1.0])
def shifted() -> list[int]:
    xs = [1, 2, 3, 4]
    xs.insert(0, 0)  # before the first
    xs.insert(-100, 9)  # far before the start: at the start
    return xs


def main() -> tuple[
    list[int], list[int], list[int], list[list[str]], list[int], list[str], list[float]
]:
    a = shifted()
    b = list(a)
    alias = b
    b.insert(len(b) - 2, 8)  # in place: the alias sees it
    b.insert(-100, 7)
    c = [0, 1, 2, 3, 4]
    for k in range(5, 7):
        c.insert(k - 3, k)  # inside, growing
    c.insert(100, 5)  # far past the end: at the end
    nested = [["a"]]
    row = ["x"]
    nested.insert(0, row)
    row.append("y")  # the inserted list itself, not a copy
    d: list[int] = []
    d.insert(0, 3)
    d.insert(-1, 1)  # before the last
    d.insert(True, 2)  # a bool index is an int
    s = ["a"]
    s.insert(-1, "b")
    s.insert(1, "c")
    f = [1.0]
    f.insert(-5, 2.5)
    return (a, alias, c, nested, d, s, f)
