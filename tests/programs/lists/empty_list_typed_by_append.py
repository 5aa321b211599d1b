# expect: ([0, 1, 4, 9], ['x', 'xx'], 0)
def main() -> tuple[list[int], list[str], int]:
    squares = []
    for i in range(4):
        squares.append(i * i)
    words = []
    words.append("x")
    words.append(words[0] * 2)
    nothing: list[float] = []
    return squares, words, len(nothing)
