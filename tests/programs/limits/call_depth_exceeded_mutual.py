# limits: max_call_depth=50
# expect trap: RecursionError
def is_even(n: int) -> bool:
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n: int) -> bool:
    if n == 0:
        return False
    return is_even(n - 1)


def main() -> bool:
    return is_even(100)
