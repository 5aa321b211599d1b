# expect trap: ValueError
def main() -> int:
    counts: dict[str, int] = {}
    for c in "":
        counts[c] = counts.get(c, 0) + 1
    return max(counts.values())
