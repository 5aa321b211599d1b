# expect: (10, 20, [5, 3, 1], [], 4)
def main() -> tuple[int, int, list[int], list[int], int]:
    total = 0
    for i in range(5):
        total += i
    evens = 0
    for i in range(2, 10, 2):
        evens += i
    down = [i for i in range(5, 0, -2)]
    backwards_empty = [i for i in range(0, 5, -1)]
    last = -1
    for last in range(5):
        pass
    return total, evens, down, backwards_empty, last
