# expect trap: AssertionError
def below_zero(ops: list[int]) -> bool:
    """Whether the balance falls below zero."""


def main() -> int:
    assert below_zero([1, -2])
    return 0
