# expect: (['k', 'i', 'l', 'n'], [0, 1, 2], [2, 5, 8], [[1], [2]], True, [])
def main() -> tuple[list[str], list[int], list[int], list[list[int]], bool, list[str]]:
    nested = [[1], [2]]
    copy = list(nested)
    copy.append([3])
    same_inner = copy[0] == nested[0]
    return list("kiln"), list(range(3)), list(range(2, 10, 3)), nested, same_inner, list("")
