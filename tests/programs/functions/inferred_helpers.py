# expect: ('hi kiln', 42, 7.5, [2, 4, 6])
def greet(name):
    return "hi " + name


def double(x):
    return x * 2


def doubled_all(xs):
    return [double(x) for x in xs]


def half_plus(y):
    return y / 2 + 0.5


def main() -> tuple[str, int, float, list[int]]:
    return greet("kiln"), double(21), half_plus(14), doubled_all([1, 2, 3])
