# expect error: type
from typing import Optional


def main() -> int:
    x: Optional[int] = 3
    if x is not None:
        x = None
        return x + 1
    return 0
