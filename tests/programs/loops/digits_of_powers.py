# expect: [1, 2, 4, 8, 7, 5, 10, 11, 13, 8, 7]
def digit_sum(n: int) -> int:
    s = 0
    for ch in str(n):
        s += ord(ch) - ord("0")
    return s


def main() -> list[int]:
    return [digit_sum(2 ** k) for k in range(11)]
