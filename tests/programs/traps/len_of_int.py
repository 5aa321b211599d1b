# call: main()
# expect trap: TypeError
# len() of an int: CPython's TypeError where it runs, after the argument is evaluated.


def size(n: int) -> int:
    if n < 0:
        return 0
    return len(n) + 1


def main():
    return size(-1) + size(7)
