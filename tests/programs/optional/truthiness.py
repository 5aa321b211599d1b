# call: main()
# expect: ['none', 'empty', 'a!', 'zero', 'none', '7']
from typing import Optional


def pick(s: str, k: int) -> Optional[str]:
    return None if k < 0 else s[:k]


def num(k: int) -> Optional[int]:
    return None if k < 0 else k


def describe(o: Optional[str]) -> str:
    if o:
        return o + "!"
    if o is None:
        return "none"
    return "empty"


def describe_int(o: Optional[int]) -> str:
    if not o:
        return "none" if o is None else "zero"
    return str(o)


def main() -> list[str]:
    return [
        describe(pick("ab", -1)),
        describe(pick("ab", 0)),
        describe(pick("ab", 1)),
        describe_int(num(0)),
        describe_int(num(-3)),
        describe_int(num(7)),
    ]
