# call: main()
# expect: ([9, 5, 3, 1], -2, 3, 12, True, ['b', 'c'], 19)
# filter(f, xs) consumed at once by sorted (reverse= too), max, min, sum, any, set and join:
# [v for v in xs if f(v)] (a generator for any/all, which stop early).


def positive(x: int) -> bool:
    return x > 0


def main():
    arr = [5, -2, 9, 1, 12, -7, 3]
    return (
        sorted(filter(lambda x: 1 <= x <= 9, arr), reverse=True),
        max(filter(lambda x: x < 0, arr)),
        min(filter(lambda x: x > 2, arr)),
        max(filter(positive, arr)),
        any(filter(lambda x: x > 10, arr)),
        sorted(set(filter(lambda c: c != "a", "abcab"))),
        sum(filter(lambda x: x % 2 == 1 and x > 0, arr)) + 1,
    )
