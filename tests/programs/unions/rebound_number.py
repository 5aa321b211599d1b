# call: main()
# expect: (1.5, 3, 2.5, -2, 7.5, False, True)
# A variable assigned an int and then a float (and back): arithmetic, comparisons, abs, round.


def total(n: int):
    t = 0
    for i in range(n):
        t += 0.5
    return t


def pick(k: int):
    x = 3
    if k > 1:
        x = 2.5
    return x


def main():
    a = total(3)
    b = pick(0)
    c = pick(2)
    d = -b + 1
    m = b * c
    return (a, b, c, d, m, b > c and c > 5, abs(d) == 2)
