# expect: (False, True, False, True, 0)
def boom(log: list[int]) -> bool:
    log.append(1)
    return 1 // 0 == 0


def main() -> tuple[bool, bool, bool, bool, int]:
    log: list[int] = []
    x = 0
    a = False and boom(log)
    b = True or boom(log)
    c = x != 0 and 10 // x > 1
    d = x == 0 or 10 // x > 1
    return a, b, c, d, len(log)
