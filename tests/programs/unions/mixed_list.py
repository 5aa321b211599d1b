# call: main()
# expect: (10.5, 3, True, [True, False, True])
# A list of ints and floats: items of a union type.


def main():
    xs = [1, 2.5, 3, 4.0]
    s = 0
    for i in range(len(xs)):
        s = s + xs[i]
    big = 0
    for i in range(len(xs)):
        if xs[i] > big:
            big = xs[i]
    flags = [xs[0] == 1, xs[1] == 2, xs[3] == 4]
    return (s, len(xs) - 1, big == 4, flags)
