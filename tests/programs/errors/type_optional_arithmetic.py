# expect error: type
from typing import Optional


def half(n: int) -> Optional[int]:
    return None if n % 2 else n // 2


def main() -> int:
    return half(4) + 1
