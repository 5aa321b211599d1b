# expect: ((3, 1), (-4, 2), (-4, -2), (2.0, 1.5), (-4.0, 0.5), '1011', [3, 1, 2], [1, 2, 3, 4], (2.0, 1.5))
# divmod(a, b) of names and number literals is (a // b, a % b), as CPython's divmod computes
# both (floor division, the remainder with the divisor's sign); xs.copy() is a new list.
def to_base(x: int, base: int) -> str:
    digits = ""
    while x > 0:
        x, rem = divmod(x, base)
        digits = str(rem) + digits
    return digits


def main():
    xs = [3, 1, 2]
    ys = xs.copy()
    ys.sort()
    ys.append(4)
    a = 7.5
    b = 3
    return (
        divmod(10, 3),
        divmod(-10, 3),
        divmod(10, -3),
        divmod(a, 3.0),
        divmod(-a, 2.0),
        to_base(11, 2),
        xs,
        ys,
        divmod(a, b),
    )
