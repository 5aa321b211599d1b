# expect: (8, True)
# a statement between two defs of f calls the first, as CPython: it reaches f through g, bound
# when it runs (the asserts fail unless each sees the f of its time)
def f(n):
    return n + 1


def g(n):
    return f(n) * 2


print(g(1))
assert g(1) == 4


def f(n):
    return n - 1


assert g(1) == 0


def main():
    return g(5), g(1) == 0
