# expect: (True, False, False, ([0, 8, 5, 2], [0.5, 9.0, 6.0, 3.0]), (21, 22, 13))
# A function with unannotated parameters runs each call with that call's argument types, as
# CPython does: a call with other types than the first gets a specialisation of its own
# (any_int(2.5, 2, 3) after any_int(2, 3, 1); recursion stays in the specialisation).
def any_int(x, y, z):
    if isinstance(x, int) and isinstance(y, int) and isinstance(z, int):
        return x + y == z or x + z == y or y + z == x
    return False


def countdown(n, acc):
    if n <= 1:
        return acc
    return countdown(n - 3, acc + [n])


def size(v):
    return len(v) * 10 + len(v[0])


def main():
    a = (any_int(2, 3, 1), any_int(2.5, 2, 3), any_int(3.0, 4, 7))
    b = (countdown(8, [0]), countdown(9.0, [0.5]))
    c = (size("xy"), size(["ab", "c"]), size([[1, 2, 3]]))
    return a + (b, c)
