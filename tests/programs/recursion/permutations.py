# expect: [[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]]
def permutations(xs: list[int]) -> list[list[int]]:
    if len(xs) <= 1:
        return [xs[:]]
    out: list[list[int]] = []
    for i in range(len(xs)):
        rest = xs[:i] + xs[i + 1:]
        for p in permutations(rest):
            out.append([xs[i]] + p)
    return out


def main() -> list[list[int]]:
    return permutations([1, 2, 3])
