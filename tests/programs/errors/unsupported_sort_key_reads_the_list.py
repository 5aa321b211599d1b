# expect error: unsupported
# CPython's list.sort makes the list look empty while it computes the keys: a key that reads
# another variable (here the list itself, through an alias) is left to CPython.
def main() -> list[int]:
    nums = [3, 1, 2]
    same = nums
    nums.sort(key=lambda v: same.count(v))
    return nums
