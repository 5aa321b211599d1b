# expect: (-4, 12, -0.5, 3.25, 'apple', 'pear', ' ', 'y', [1, 2])
def main() -> tuple[int, int, float, float, str, str, str, str, list[int]]:
    ints = [3, -4, 12, 0]
    floats = [1.0, -0.5, 3.25]
    words = ["pear", "apple", "fig"]
    grid = [[1, 2], [1, 1], [0, 9]]
    return (min(ints), max(ints), min(floats), max(floats), min(words), max(words),
            min("kiln language"), max("xylophone"), max(grid))
