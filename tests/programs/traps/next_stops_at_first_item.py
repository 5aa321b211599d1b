# call: main([4, 2, 0])
# expect trap: ZeroDivisionError


def main(xs):
    # next() takes one item and stops: 12 // 0 is never computed for a and b
    a = next((12 // x for x in xs), -1)
    b = next((12 // x for x in xs if x < 3), -1)
    if a + b != 9:
        return 0
    return next((12 // x for x in xs if x < 1), -1)
