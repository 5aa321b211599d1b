# expect: [8, 14, 6, -13, 3, -5, -8, 0, 7, -1]
def main() -> list[int]:
    a = 12
    b = 10
    n = -5
    return [a & b, a | b, a ^ b, ~a, n & 3, n | 3, n ^ 3, ~-1, 7 & -1, ~0]
