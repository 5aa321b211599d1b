# limits: fuel=100000
# expect: 4950
def main() -> int:
    """A generous budget: the loop finishes well inside it."""
    total = 0
    for i in range(100):
        total += i
    return total
