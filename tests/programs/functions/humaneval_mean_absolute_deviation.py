# call: mean_absolute_deviation([1.0, 2.0, 3.0, 4.0])
# expect: 1.0
from typing import List


def mean_absolute_deviation(numbers: List[float]) -> float:
    """ Average absolute difference between each element and the mean. """
    mean = sum(numbers) / len(numbers)
    return sum([abs(x - mean) for x in numbers]) / len(numbers)
