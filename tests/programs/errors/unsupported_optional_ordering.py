# expect error: unsupported
from typing import Optional


def half(n: int) -> Optional[int]:
    return None if n % 2 else n // 2


def main() -> list[Optional[int]]:
    return sorted([half(4), half(2)])
