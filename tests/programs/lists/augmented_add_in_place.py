# expect: ([1, 2, 3], [1, 2], [1, 2], [5, 6, 5, 6], [5, 6, 5, 6])
def main() -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """xs += ys extends the list in place (aliases see it); xs = xs + ys makes a new one."""
    a = [1]
    b = a
    a += [2]
    c = a
    a = a + [3]
    d = [5, 6]
    e = d
    d *= 2
    return a, b, c, d, e
