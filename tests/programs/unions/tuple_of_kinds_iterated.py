# expect: (False, True, [1, 'a', 2.5], 2)
# a tuple display of items of several kinds, iterated: each item a tagged value
def any_int(x, y, z):
    if not all(isinstance(i, int) for i in (x, y, z)):
        return False
    return x == y + z or y == x + z or z == x + y


def main():
    kinds = [v for v in (1, "a", 2.5)]
    n = 0
    for v in (3, "b", 4.0):
        if isinstance(v, (int, str)):
            n += 1
    return any_int(3.6, -2.2, 2), any_int(2, 3, 1), kinds, n
