# call: count_pairs(12, 5)
# expect: 13
def count_pairs(n, k):
    """Pairs i < j below n whose sum is divisible by k."""
    count = 0
    for i in range(n):
        for j in range(i + 1, n):
            if (i + j) % k == 0:
                count += 1
    return count
