# limits: max_call_depth=50
# expect trap: RecursionError
def countdown(n: int) -> int:
    """100 nested calls exceed a call-depth limit of 50."""
    if n == 0:
        return 0
    return countdown(n - 1) + 1


def main() -> int:
    return countdown(100)
