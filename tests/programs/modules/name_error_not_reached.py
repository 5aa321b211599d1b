# expect: 3
# A name bound nowhere on a path no call takes changes nothing (CPython looks names up when
# they are read).
def f(n: int) -> int:
    if n > 3:
        return n + offset
    return n


def main() -> int:
    return f(1) + f(2)
