# expect: ([2, 4], [3, 1], 2, [1, 4, 9, 16], [1, 2, 3], ['A', 'B'])
def positive(x: int) -> bool:
    return x > 0


def main():
    xs = [1, 2, -3, 4]
    evens = list(filter(lambda x: x % 2 == 0, xs))
    pos = list(filter(positive, [3, -1, 1]))
    negatives = len(list(filter(lambda x: x < 0, [-1, 2, -3])))
    squares = list(map(lambda v: v * v, [1, 2, -3, 4]))
    digits = list(map(int, "123"))
    upper = list(map(lambda s: s.upper(), ["a", "b"]))
    return evens, pos, negatives, squares, digits, upper
