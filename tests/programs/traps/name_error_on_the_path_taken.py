# expect trap: NameError
# A name bound nowhere is only an error where it is read: f(1) and f(2) run, f(5) raises.
def f(n: int) -> int:
    if n > 3:
        return n + offset
    return n


def main() -> int:
    total = f(1) + f(2)
    return total + f(5)
