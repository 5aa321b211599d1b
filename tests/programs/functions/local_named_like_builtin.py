# expect: 12
# A variable named like a builtin shadows it in its function only (sum, max here), as CPython
# scopes names; other functions still call the builtins.
def total(xs: list[int]) -> int:
    sum = 0
    for x in xs:
        sum += x
    max = sum * 2
    return max


def main() -> int:
    return total([1, 2, 3]) + sum([0]) + max(0, 0)
