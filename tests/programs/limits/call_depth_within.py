# limits: max_call_depth=50
# expect: 40
def countdown(n: int) -> int:
    """40 nested calls (plus main) stay inside a limit of 50."""
    if n == 0:
        return 0
    return countdown(n - 1) + 1


def main() -> int:
    return countdown(40)
