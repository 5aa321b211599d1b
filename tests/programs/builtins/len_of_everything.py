# expect: [5, 0, 3, 2, 0, 4, 6]
def main() -> list[int]:
    empty: list[str] = []
    nested = [[1, 2], [3]]
    return [len("kiln!"), len(""), len([1, 2, 3]), len(nested), len(empty),
            len(list(range(4))), len("ab" * 3)]
