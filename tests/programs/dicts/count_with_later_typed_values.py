# expect: [(1, 2), (2, 1), (3, 3)]
# counts[n] += 1 comes before the assignment that tells the values' type (counts[n] = 1): the
# addition takes it from its other operand, an int, which the assignment agrees with.
def main() -> list[tuple[int, int]]:
    counts = {}
    for n in [3, 1, 3, 2, 1, 3]:
        if n in counts:
            counts[n] += 1
        else:
            counts[n] = 1
    return sorted(counts.items())
