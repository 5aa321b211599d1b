# expect: ('b', 20, 'a')
def main() -> tuple[str, int, str]:
    s = "ab"
    xs = [10, 20]
    flag = len(s) == 2
    return s[flag], xs[flag], s[not flag]
