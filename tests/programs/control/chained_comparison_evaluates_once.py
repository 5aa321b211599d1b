# expect: (True, 1, False, 2)
def tick(log: list[int], value: int) -> int:
    log.append(value)
    return value


def main() -> tuple[bool, int, bool, int]:
    log: list[int] = []
    inside = 0 < tick(log, 5) < 10
    once = len(log)
    outside = 10 < tick(log, 3) < tick(log, 99)
    return inside, once, outside, len(log)
