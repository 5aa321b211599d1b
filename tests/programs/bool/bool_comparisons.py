# expect: (True, True, True, False, True, [False, True, True], True, 0)
def main() -> tuple[bool, bool, bool, bool, bool, list[bool], bool, int]:
    t = True
    f = False
    return t == 1, f < t, t > 0.5, f == 0.5, f == 0, sorted([t, f, t]), max(t, f), min(f, t) + 0
