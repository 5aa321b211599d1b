# expect: 10
# Top-level prints, calls and asserts run in order before anything is called, as in CPython.
def add(a: int, b: int) -> int:
    return a + b


print(add(1, 2))
assert add(2, 2) == 4, "add is broken"
add(5, 5)


def main() -> int:
    return add(4, 6)


print(main(), "done")
