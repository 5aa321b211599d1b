# expect: [3, -1, -1, 10, 23, 2, 36]
def find(xs: list[int], v: int) -> int:
    i = 0
    while i < len(xs):
        if xs[i] == v:
            break
        i += 1
    else:
        i = -1  # the test went false: not found
    return i


def nested(n: int) -> int:
    """A break in the inner loop's else clause leaves the outer loop."""
    total = 0
    for i in range(n):
        j = 0
        while j < i:
            if j == 3:
                break
            total += 1
            j += 1
        else:
            if i == 3:
                break
            total += 10
            continue
        total += 100
    return total


def zero_times(n: int) -> int:
    k = 2
    while n > 100:
        k += 1
    else:
        k *= 1
    for _ in range(n, 0):
        k = 50
    else:
        k = k
    return k


def main() -> list[int]:
    return [
        find([4, 5, 6, 7], 7),
        find([4, 5], 9),
        find([], 0),
        nested(2) - 11 + 10 - 10,
        nested(3) - 10,
        zero_times(3),
        nested(8),
    ]
