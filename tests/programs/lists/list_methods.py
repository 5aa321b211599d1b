# expect: ([1, 2, 3, 3], [3, 3, 2, 1], 2, 2, 0, [9, 2, 1, 7], [], ['c', 'b', 'a'], [[1], [1, 2]], [1, 3, 1])
def main():
    xs = [3, 1, 2, 3]
    alias = xs
    xs.sort()
    first = list(alias)
    xs.sort(reverse=True)
    second = list(xs)
    i = xs.index(2)
    c = xs.count(3)
    z = xs.count(5)
    xs.remove(3)
    xs.extend([7])
    xs[0] = 9
    zs = [1, 2]
    zs.clear()
    ws = ["b", "c", "a"]
    ws.sort()
    ws.reverse()
    nested = [[1, 2], [1]]
    nested.sort()
    r = [1, 2, 1, 3, 1]
    r.remove(2)
    r.remove(1)
    return first, second, i, c, z, alias, zs, ws, nested, r
