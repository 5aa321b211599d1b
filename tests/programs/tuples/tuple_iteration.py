# call: main((10, 4, 5, 6, 8), ("a", "bc", "d"))
# expect: (33, 2, ['a', 'bc', 'd'], 'a-bc-d', [(0, 'a'), (1, 'bc'), (2, 'd')], [(10, 'a'), (4, 'bc'), (5, 'd')], [8, 6, 5, 4, 10], 10, 4, [4, 5, 6, 8, 10], 5, True, [3, 9, 8])


def count_x(tup, x):
    count = 0
    for ele in tup:
        if ele == x:
            count = count + 1
    return count


def main(nums, words):
    total = 0
    for n in nums:
        total += n
    evens = count_x(nums, 4) + count_x((4, 4, 1), 4) - 1
    listed = [w for w in words]
    joined = "-".join(words)
    numbered = [(i, w) for i, w in enumerate(words)]
    pairs = [(a, b) for a, b in zip(nums, words)]
    backwards = [n for n in reversed(nums)]
    distinct = set(nums)
    inner = [len(s) + k for k, s in zip((2, 7, 7), words)]
    return (
        total,
        evens,
        listed,
        joined,
        numbered,
        pairs,
        backwards,
        max(nums),
        min(nums),
        sorted(nums),
        len(distinct),
        all(n > 3 for n in nums),
        inner,
    )
