# expect: [1024, 4611686018427387904, -8, 128, -128, -4, 0, -1, 3, 1]
def main() -> list[int]:
    one = 1
    amounts = [10, 62, 3]
    out: list[int] = []
    out.append(one << amounts[0])
    out.append(one << amounts[1])
    out.append(-one << amounts[2])
    out.append(1024 >> amounts[2])
    out.append(-1024 >> amounts[2])
    out.append(-7 >> one)
    big = 100
    out.append(5 >> big)
    out.append(-5 >> big)
    out.append(3 << 0)
    out.append(4611686018427387904 >> 62)
    return out
