# call: main((3, 1, 2))
# expect: ((1, 2, 3), 6, (3, 1, 2, 3, 1, 2), ())
from typing import Tuple


def ordered(t: tuple[int, ...]) -> Tuple[int, ...]:
    return tuple(sorted(t))


def main(t: tuple[int, ...]):
    nothing: tuple[int, ...] = ()
    return ordered(t), sum(t), t + t, nothing
