# call: main([1, 11, -1, -11, -12, 0, 123, -987], 7)
# expect: ([-1, -11, 0, 1, -12, 11, 123, -987], 5, ('7', 3.5, [7, 7]))
def digits_sum(n):
    """HumanEval 145's helper: n is an int, then a list of its digits."""
    neg = 1
    if n < 0:
        n, neg = -1 * n, -1
    n = [int(i) for i in str(n)]
    n[0] = n[0] * neg
    return sum(n)


def retype(x):
    """At the top level of a function a value of another type starts a new variable of the
    same name: reads before it see the old one, reads after it the new one."""
    y = x
    x = str(x)
    half = y / 2
    y = [y, y]
    return x, half, y


def main(arr, k):
    by_digits = sorted(arr, key=digits_sum)
    positive = len(list(filter(lambda v: v > 0, [digits_sum(i) for i in arr])))
    return by_digits, positive, retype(k)
