# call: main([3, 1, 2], ["a", "b"])
# expect: (6, 'ab')
def total(xs: list) -> int:
    return sum(xs)


def main(l: list, names: list):
    """A bare `list` annotation takes its element type from the arguments."""
    s = ""
    for name in names:
        s += name
    return total(l), s
