# expect error: type
# A specialisation is checked like any function: with a float n, total += n makes the int
# total a float, which kiln rejects as it does in the first one.
def add_all(xs):
    total = 0
    for n in xs:
        total += n
    return total


def main() -> int:
    return add_all([1, 2]) + int(add_all([0.5]))
