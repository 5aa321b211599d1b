# expect: ([6, 1, 4, 3], [2, 5])
def main() -> tuple[list[int], list[int]]:
    xs = [1, 2, 3, 4, 5, 6]
    popped: list[int] = []
    popped.append(xs.pop())
    popped.append(xs.pop(0))
    popped.append(xs.pop(-2))
    popped.append(xs.pop(1))
    return popped, xs
