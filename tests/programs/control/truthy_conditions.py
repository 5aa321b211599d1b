# expect: (3, 4, 'abc', 0)
def main() -> tuple[int, int, str, int]:
    xs = [1, 2, 3]
    popped = 0
    while xs:
        xs.pop()
        popped += 1
    s = "abcd"
    n = 0
    while s:
        s = s[1:]
        n += 1
    t = "abc"
    shown = t if t else "empty"
    zero = 0
    flag = 1 if zero else 0
    return popped, n, shown, flag
