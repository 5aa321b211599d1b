# limits: stack_words=256 max_call_depth=100000
# expect trap: StackExhausted
def depth(n: int) -> int:
    """500 frames cannot fit in 256 words of value stack."""
    if n == 0:
        return 0
    return 1 + depth(n - 1)


def main() -> int:
    return depth(500)
