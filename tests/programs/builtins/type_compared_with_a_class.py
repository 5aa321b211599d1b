# call: main()
# expect: [True, False, True, True, False, True, True, False]
# type(x) compared with a builtin class (==, !=, is, is not) or with another type(y): decided by
# the static types, each kind being one class at run time (a bool is never an int's 1 here);
# the argument of type() is still evaluated.


def any_int(x, y, z):
    if type(x) == int and type(y) == int and type(z) == int:
        return x + y == z or x + z == y or y + z == x
    return False


def sort_even(l: list):
    if type(l) != list:
        return []
    return sorted(l)


def main():
    return [
        any_int(2, 3, 1),
        any_int(2.5, 2, 3),
        type("a") is str,
        type(True) is not int,
        type(1.5) == type(2),
        sort_even([3, 1]) == [1, 3],
        type([1]) == list and type((1, "a")) == tuple,
        isinstance(7, bool),
    ]
