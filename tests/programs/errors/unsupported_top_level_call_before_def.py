# expect error: unsupported
# CPython raises NameError here: later is not bound yet when the print runs.
def main() -> int:
    return later(1)


print(main())


def later(n: int) -> int:
    return n + 1
