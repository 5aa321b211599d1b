# expect: [True, False, False, True]
def is_even(n: int) -> bool:
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n: int) -> bool:
    if n == 0:
        return False
    return is_even(n - 1)


def main() -> list[bool]:
    return [is_even(24), is_even(25), is_odd(0), is_odd(99)]
