# expect: [False, True, True, False, True]
def main() -> list[bool]:
    a = 1
    b = 2
    t = True
    f = False
    return [not a == 1, not a == b, not f and t, not (f or t), f or not f and t]
