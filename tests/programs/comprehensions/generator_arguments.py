# expect: (55, 1, 9, [9, 4, 1], [0, 2, 4], 3, 'a')
def main() -> tuple[int, int, int, list[int], list[int], int, str]:
    xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    total = sum(x * x for x in range(6))
    low = min(abs(x - 4) for x in xs if x != 4)
    high = max(x for x in xs if x % 2 == 1)
    desc = sorted((x * x for x in range(1, 4)), reverse=True)
    evens = list(2 * i for i in range(3))
    odd_count = sum(int(c) % 2 == 1 for c in "12345")
    first = min(c for c in "kiln" + "a")
    return total, low, high, desc, evens, odd_count, first
