# call: main()
# expect trap: TypeError
# kiln: Unsupported
# The result is used as a number, so it cannot be Optional: the end of the body, where CPython
# returns None (and `None + 1` raises TypeError), is the fallback trap Unsupported.


def half(n: int) -> int:
    if n % 2 == 0:
        return n // 2


def main() -> int:
    return half(4) + half(3)
