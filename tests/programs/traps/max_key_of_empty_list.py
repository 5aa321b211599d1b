# expect trap: ValueError
def main() -> int:
    nums: list[int] = []
    return max(nums, key=lambda v: -v)
