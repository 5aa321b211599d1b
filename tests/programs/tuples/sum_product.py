# call: sum_product([1, 2, 3, 4])
# expect: (10, 24)
def sum_product(numbers):
    """Sum and product of a list, returned as a pair."""
    s = 0
    p = 1
    for n in numbers:
        s += n
        p *= n
    return s, p
