# expect trap: IndexError
# An exception in a top-level print's argument fails the module before main is called.
def first(xs: list[int]) -> int:
    return xs[0]


print(first([]))


def main() -> int:
    return first([7])
