# expect: 6
# Module-level variables that only top-level statements read (a model's "# Test" section):
# they run in order, each read seeing the latest binding, a list rebound and k += 1 included.
def add_elements(arr: list[int], k: int) -> int:
    total = 0
    for i in range(k):
        if len(str(arr[i])) <= 2:
            total += arr[i]
    return total


arr = [111, 21, 3, 4000, 5, 6, 7, 8, 9]
k = 4
print(add_elements(arr, k))
assert add_elements(arr, k) == 24
arr = [1, 2, 3, 4]
k += 1
k, limit = 3, 10
assert add_elements(arr, k) == 6 < limit


def main() -> int:
    return add_elements([1, 2, 3], 3)
