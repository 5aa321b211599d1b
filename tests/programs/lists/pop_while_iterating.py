# expect: ([1, 3, 5], [4, 5, 6])
def main() -> tuple[list[int], list[int]]:
    """The loop walks by position, so popping the front skips elements."""
    xs = [1, 2, 3, 4, 5, 6]
    seen: list[int] = []
    for x in xs:
        seen.append(x)
        xs.pop(0)
    return seen, xs
