# expect: ([1, 2, 3, 3, 3, 4, 4], True)
# `-> List[int]` is not checked by CPython: max(float('-inf'), n) is n, an int, and the list
# returned holds what was appended (an int, or the float where nothing beat it)
from typing import List


def rolling_max(numbers: List[int]) -> List[int]:
    result = []
    best = float('-inf')
    for n in numbers:
        best = max(best, n)
        result.append(best)
    if not numbers:
        result.append(best)
    return result


def main():
    return rolling_max([1, 2, 3, 2, 3, 4, 2]), rolling_max([]) == [float('-inf')]
