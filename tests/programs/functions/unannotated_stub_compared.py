# call: main()
# expect: [False, True]
# An unannotated function that returns no value returns None, whatever its callers compare
# its result with (`== 0` is False, decided by the types).


def count_nums(arr):
    """Count the numbers whose digit sum is positive."""


def main():
    return [count_nums([1, 2]) == 0, count_nums([]) is None]
