# expect: (3, 2)
def main() -> tuple[int, int]:
    """A comparison used as 0 or 1 in a running count."""
    word = "bananas"
    count_a = 0
    count_n = 0
    for c in word:
        count_a += c == "a"
        count_n = count_n + (c == "n")
    return count_a, count_n
