# expect: ([9, 2, 3, 4], [9, 2, 3, 4], True)
def main() -> tuple[list[int], list[int], bool]:
    """Two names for one list: a mutation through either is seen through both."""
    a = [1, 2, 3]
    b = a
    b.append(4)
    a[0] = 9
    return a, b, a == b
