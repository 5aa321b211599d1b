# expect: [10, 7, 4, 1, -2]
def main() -> list[int]:
    out: list[int] = []
    for i in range(10, -5, -3):
        out.append(i)
    return out
