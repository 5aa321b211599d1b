# expect: (7, 'ab', (3, 4))
def main() -> tuple[int, str, tuple[int, int]]:
    t = ((3, 4), "ab")
    inner = t[0]
    a, b = inner
    return a + b, t[1], inner
