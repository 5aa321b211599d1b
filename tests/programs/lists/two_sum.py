# call: two_sum([2, 7, 11, 15, -3], 8)
# expect: (2, 4)
def two_sum(nums, target):
    for i in range(len(nums)):
        for j in range(i + 1, len(nums)):
            if nums[i] + nums[j] == target:
                return i, j
    return -1, -1
