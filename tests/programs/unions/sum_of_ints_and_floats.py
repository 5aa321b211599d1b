# call: main()
# expect: (10, 7.5, 0, 3.5, 6.5)
# sum() of a list of ints and floats: 0 plus each item in turn, an int until a float comes.


def main():
    a = sum([1, 2, 3, 4])
    xs = [1, 2.5, 4]
    ys = [x for x in xs if x > 5]
    zs = [3.5]
    ws = [1, 2.5, 3]
    return (a, sum(xs), sum(ys), sum(zs), sum(ws))
