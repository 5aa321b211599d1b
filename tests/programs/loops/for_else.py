# expect: [7, -1, 3, 12, 9, -1, 6, 4, 4, 2]
def x_or_y(n: int, x: int, y: int) -> int:
    """HumanEval/150: x when n is prime, else y (the else clause is the prime case)."""
    if n == 1:
        return y
    for i in range(2, n):
        if n % i == 0:
            return y
    else:
        return x


def first_over(xs: list[int], limit: int) -> int:
    found = 0
    for x in xs:
        if x > limit:
            found = x
            break
    else:
        found = -1  # no break: the list ran out
    return found


def count_until(s: str, stop: str) -> int:
    n = 0
    for c in s:
        if c == stop:
            break
        n += 1
    else:
        n = n * 2  # only when stop is not in s
    return n


def skip_odd(xs: list[int]) -> int:
    total = 0
    for i, x in enumerate(xs):
        if x % 2 == 1:
            continue  # continue is not a break: the else clause still runs
        total += i
    else:
        total += 100
    return total


def zipped(a: list[int], b: list[int]) -> int:
    for p, q in zip(a, b):
        if p == q:
            break
    else:
        return -1
    return p


def keys(n: int) -> int:
    d: dict[str, int] = {}
    for i in range(n):
        d["k" + str(i)] = 1 + 4 * i
    best = 0
    for k in d:
        if d[k] > 5:
            best = d[k]
            break
    else:
        best = len(d)
    return best


def main() -> list[int]:
    return [
        x_or_y(7, 7, 9),
        first_over([1, 2, 3], 5),
        first_over([1, 3, 9], 2),
        skip_odd([1, 2, 4]) - 91,
        x_or_y(15, 8, 9),
        zipped([1, 2], [3, 4]),
        zipped([1, 6, 7], [2, 6, 7]),
        count_until("abcde", "f") - 5 + keys(2) - 3,
        keys(3) - 5,
        count_until("abcde", "c") + keys(0),
    ]
