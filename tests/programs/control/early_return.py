# expect: [2, -1, 0]
def first_negative(xs: list[int]) -> int:
    for i in range(len(xs)):
        if xs[i] < 0:
            return i
    return -1


def main() -> list[int]:
    return [first_negative([4, 0, -3, -8]), first_negative([1, 2]), first_negative([-1])]
