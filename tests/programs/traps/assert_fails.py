# expect trap: AssertionError
def main() -> int:
    xs = [3, 1, 2]
    assert sorted(xs) == xs
    return 0
