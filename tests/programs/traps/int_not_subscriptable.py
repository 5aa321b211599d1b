# call: main()
# expect trap: TypeError
# An int indexed: CPython's TypeError ('int' object is not subscriptable) where it runs, after
# the int and the index are evaluated.


def digit(n: int, i: int) -> int:
    if i < 0:
        return 0
    return int(n[i]) + 1


def main():
    total = digit(5, -1)
    return total + digit(123, 0)
