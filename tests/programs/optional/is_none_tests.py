# call: main()
# expect: [True, False, True, True, True, False, False, False, True]
from typing import Optional


def half(n: int) -> Optional[int]:
    if n % 2:
        return None
    return n // 2


def main() -> list[bool]:
    xs = [1, 2, 3]
    return [
        half(1) is None,
        half(2) is None,
        half(3) == None,
        half(4) != None,
        half(4) == 2,
        half(4) == 3,
        half(5) == 2,
        xs is None,
        None is not xs,
    ]
