# call: main()
# expect: [True, False, True, True, False]
def sort_even(l: list[int]) -> list[int]:
    """HumanEval/37's tests compare `tuple(candidate(...)) == tuple([...])`."""
    evens = l[::2]
    odds = l[1::2]
    evens.sort()
    ans = []
    for e, o in zip(evens, odds):
        ans.extend([e, o])
    if len(evens) > len(odds):
        ans.append(evens[-1])
    return ans


def main() -> list[bool]:
    return [
        tuple(sort_even([5, 6, 3, 4])) == tuple([3, 6, 5, 4]),
        tuple(sort_even([1, 2, 3])) == tuple([1, 2]),
        tuple(sort_even([2, 1])) < tuple([3]),
        tuple(sort_even([1, 2])) == (1, 2),
        tuple("ab") != tuple(["a", "b"]),
    ]
