# expect: ([[0, 9], [5, 1], [2, 3]], [5, 3, 9], [0, 9], 8, ['1', '22'], [[5, 1], [2, 3]])
def main() -> tuple[list[list[int]], list[int], list[int], int, list[str], list[list[int]]]:
    """A builtin function given where a function is wanted (key=, map, filter) is called on
    each item, as a module function is: key=min, map(max, ...), key=sum, map(str, ...)."""
    rows = [[5, 1], [2, 3], [0, 9]]
    return (
        sorted(rows, key=min),
        list(map(max, rows)),
        max(rows, key=sum),
        sum(map(len, rows)) + sum(map(min, rows)) - 1,
        list(map(str, [1, 22])),
        list(filter(min, rows)),
    )
