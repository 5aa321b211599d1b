# expect: [3, 9, 29, 61]
def ack(m: int, n: int) -> int:
    if m == 0:
        return n + 1
    if n == 0:
        return ack(m - 1, 1)
    return ack(m - 1, ack(m, n - 1))


def main() -> list[int]:
    return [ack(1, 1), ack(2, 3), ack(3, 2), ack(3, 3)]
