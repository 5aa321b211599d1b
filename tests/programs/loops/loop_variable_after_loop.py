# expect: (4, 'c', 9, 3)
def main() -> tuple[int, str, int, int]:
    """A for loop's variable keeps its last value after the loop."""
    for i in range(5):
        pass
    for c in "abc":
        pass
    for x in [7, 8, 9]:
        if x == 100:
            break
    for k in range(10):
        if k == 3:
            break
    return i, c, x, k
