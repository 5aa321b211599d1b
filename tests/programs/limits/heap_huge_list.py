# limits: heap_words=4096
# expect trap: HeapExhausted
def main() -> int:
    """A million-element list cannot fit in a 4096-word arena."""
    n = 10 ** 6
    xs = [0] * n
    return len(xs)
