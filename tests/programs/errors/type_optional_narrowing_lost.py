# expect error: type
from typing import Optional


def maybe(n: int) -> Optional[int]:
    return None if n < 0 else n


def main() -> int:
    x = maybe(3)
    if x is None:
        return 0
    total = x
    x = maybe(-1)
    return total + x
