# expect: (1, 3, 1.5, 'b', -1, 'apple', 9)
def main() -> tuple[int, int, float, str, int, str, int]:
    a = 3
    return (min(a, 1, 2), max(a, 1, 2), min(2.5, 1.5), max("a", "b"), min(-1, -1),
            min("banana", "apple", "cherry"), max(a * a, a + a))
