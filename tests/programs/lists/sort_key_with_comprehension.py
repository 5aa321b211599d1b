# call: main()
# expect: [1, -1, 11, -11, -12]
# A key lambda whose body has a comprehension of its own (its variable is the key's, not the
# caller's): the list sorted in place by the keys, equal keys in their order.


def main() -> list[int]:
    nums = [1, 11, -1, -11, -12]
    nums.sort(key=lambda x: sum([int(c) for c in str(abs(x))]))
    return nums
