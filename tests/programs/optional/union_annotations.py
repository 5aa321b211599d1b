# call: main()
# expect: [0, 6, -1, 12]
from typing import Optional, Union


def twice(x: int | None) -> int:
    return 0 if x is None else x * 2


def twice_u(x: Union[int, None]) -> int:
    if x is None:
        return -1
    return x * 2


def main() -> list[int]:
    a: Optional[int] = None
    return [twice(a), twice(3), twice_u(None), twice_u(6)]
