# call: main()
# expect: (3, 8.0, True, True, '3', 11.0)
# A result that is an int on one path and a float on another: a tagged union.


def median(l: list):
    l = sorted(l)
    n = len(l)
    if n % 2 == 1:
        return l[n // 2]
    return (l[n // 2 - 1] + l[n // 2]) / 2


def main():
    a = median([3, 1, 2, 4, 5])
    b = median([-10, 4, 6, 1000, 10, 20])
    return (a, b, a == 3, b == 8, str(a), a + b)
