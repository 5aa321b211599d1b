# expect: [1, 2, 3]
# Imports of side-effect-free standard modules whose names nothing reads are no-ops (model
# output often starts with them); a function's own unused import too.
import os
import sys, json
from collections import deque, Counter
import random as rnd
from typing import List


def sort_numbers(numbers: List[int]) -> List[int]:
    import re
    if len(numbers) > 100:
        from heapq import nsmallest
    return sorted(numbers)


def main() -> List[int]:
    return sort_numbers([3, 1, 2])
