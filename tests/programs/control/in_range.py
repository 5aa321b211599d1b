# expect: (198, [True, False, False, True], [2, 3], False)
# `x in range(b)` and `x in range(a, b)` of an int: a <= x < b, x evaluated first
def upper_sum(s: str) -> int:
    total = 0
    for char in s:
        if ord(char) in range(65, 91):
            total += ord(char)
    return total


def main():
    tests = [3 in range(5), 5 in range(5), -1 in range(0, 4), 7 not in range(2, 7)]
    kept = [n for n in [1, 2, 3, 9] if n in range(2, len("abcd"))]
    return upper_sum("aAbBcC+z"), tests, kept, True in range(0)
