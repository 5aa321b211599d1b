# expect error: unsupported
def main() -> int:
    """list.index compares by identity first in CPython (a NaN finds itself): not for floats."""
    xs = [1.5, 2.5]
    return xs.index(2.5)
