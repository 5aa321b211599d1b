# expect: None
# A docstring-only stub (a prompt left unanswered, a body cut short) returns None whatever its
# annotation says: CPython does not check annotations.
from typing import List


def stub(xs: List[int]) -> List[int]:
    """Return xs sorted."""


def main() -> None:
    return stub([2, 1])
