# expect: (False, True, False, True, False, True, True, False, False, True, True)
# == and != of values whose types never hold equal values are False and True, as in CPython
# (both operands still evaluated): a str and an int, a list and a tuple, tuples of different
# lengths; lists whose items never compare equal are equal only when both are empty; a result
# that is always None is None.
def digits(n: int) -> list[int]:
    return [int(c) for c in str(n)]


def nothing(n: int):
    n += 1


def main():
    words: list[str] = []
    return (
        digits(12) == ["1", "2"],
        digits(12) != ["1", "2"],
        "3" == 3,
        (1, "a") != (1, "a", 2),
        digits(5) == (5,),
        digits(5)[:0] == words,
        nothing(1) == None,
        nothing(2) != None,
        [(1, 2)] == [1, 2],
        [] == words,
        str(4) != 4,
    )
