# expect trap: AssertionError
def main() -> int:
    ok = 1 > 2
    if not ok:
        raise AssertionError("explicitly raised")
    return 1
