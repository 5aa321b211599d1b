# call: main([3, 7, 8, 5, 10])
# expect: (8, 3, -1, 'x', 56, 4)


def first_even(nums):
    return next((n for n in nums if n % 2 == 0), -1)


def main(nums):
    first = next((n for n in nums), 0)
    none_big = next((n for n in nums if n > 100), -1)
    word = next((w for w in ["", "x", "yz"] if w), "none")
    product = next((a * b for a in nums for b in nums if a != b and a * b > 50), 0)
    count = 0
    for n in nums:
        if next((m for m in nums if m > n), 0) > 0:
            count += 1
    return first_even(nums), first, none_big, word, product, count
