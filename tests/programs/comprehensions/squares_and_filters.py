# expect: ([0, 1, 4, 9, 16, 25], [0, 2, 4, 6, 8], [9, 25, 49])
def main() -> tuple[list[int], list[int], list[int]]:
    squares = [x * x for x in range(6)]
    evens = [x for x in range(10) if x % 2 == 0]
    odd_squares = [x * x for x in range(2, 8) if x % 2 == 1]
    return squares, evens, odd_squares
