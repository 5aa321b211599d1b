# expect: 6
def main() -> int:
    x = 3
    assert x > 0
    assert x == 3, "x must be three"
    assert [1, 2] < [1, 3], "list order"
    assert "a" in "cat"
    return x * 2
