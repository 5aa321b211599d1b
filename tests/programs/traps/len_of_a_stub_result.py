# expect trap: TypeError
# A stub (its body cut short) returns None: len() of it is CPython's TypeError, raised after
# the call ran.
def stub(xs: list[int]) -> list[int]:
    """Return xs sorted."""


def main() -> int:
    return len(stub([2, 1])) + 1
