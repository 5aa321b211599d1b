# call: main()
# expect: (0.5, 3, 2, 2.0, -1, True, True)
# min and max of an int and a float: the first smallest or largest argument as it is.


def main():
    a = min(3, 0.5)
    b = max(3, 0.5)
    c = max(2, 2.0)
    d = max(2.0, 2)
    e = min(-1, 4.5, 3)
    return (a, b, c, d, e, c == d, a < b)
