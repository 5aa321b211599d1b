# expect: [105, 102, 204, 29, 9, 729, 713, 719, 560, 70, 280, 0]
def main() -> list[int]:
    trail: list[int] = []
    x = 100
    x += 5
    trail.append(x)
    x -= 3
    trail.append(x)
    x *= 2
    trail.append(x)
    x //= 7
    trail.append(x)
    x %= 10
    trail.append(x)
    x **= 3
    trail.append(x)
    x &= 1001
    trail.append(x)
    x |= 6
    trail.append(x)
    x ^= 0xFF
    trail.append(x)
    x >>= 3
    trail.append(x)
    x <<= 2
    trail.append(x)
    x -= x
    trail.append(x)
    return trail
