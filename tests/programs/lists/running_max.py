# call: rolling_max([1, 2, 3, 2, 3, 4, 2])
# expect: [1, 2, 3, 3, 3, 4, 4]
from typing import List


def rolling_max(numbers: List[int]) -> List[int]:
    """From a list of integers, the rolling maximum seen so far."""
    result: List[int] = []
    best = numbers[0]
    for n in numbers:
        best = max(best, n)
        result.append(best)
    return result
