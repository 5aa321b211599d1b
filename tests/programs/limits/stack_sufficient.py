# limits: stack_words=256 max_call_depth=100000
# expect: 120
def factorial(n: int) -> int:
    """Five frames fit easily in 256 words."""
    if n <= 1:
        return 1
    return n * factorial(n - 1)


def main() -> int:
    return factorial(5)
