# expect trap: KeyError
def main() -> int:
    counts = {1: 0}
    for i in [1, 2]:
        counts[i] += 1
    return counts[1]
