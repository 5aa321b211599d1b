# call: main()
# expect: [-9, 0, None, 20]
from typing import Optional


def prod_signs(arr):
    """HumanEval/128: None for an empty list."""
    if not arr:
        return None
    prod = 0 if 0 in arr else (-1) ** len(list(filter(lambda x: x < 0, arr)))
    return prod * sum([abs(i) for i in arr])


def main() -> list[Optional[int]]:
    return [
        prod_signs([1, 2, 2, -4]),
        prod_signs([0, 1]),
        prod_signs([]),
        prod_signs([2, 4, 1, 2, -1, -1, 9]),
    ]
