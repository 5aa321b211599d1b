# call: rolling_max([3, 2, 3, 100, 3])
# expect: [3, 3, 3, 100, 100]
from typing import List


def rolling_max(numbers: List[int]) -> List[int]:
    """A variable that starts as None: after the if/else it holds an int on every path."""
    running_max = None
    result = []

    for n in numbers:
        if running_max is None:
            running_max = n
        else:
            running_max = max(running_max, n)

        result.append(running_max)

    return result
