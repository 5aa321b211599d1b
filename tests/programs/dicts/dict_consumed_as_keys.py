# expect: ([1, 3, 7], [7, 3, 1], 1, 'b', 2, [1, 3, 7])
# sorted(d), min(d), max(d), set(d) of a dict consume its keys, in insertion order, as CPython
def search(lst: list[int]) -> int:
    freq = {}
    for num in lst:
        freq[num] = freq.get(num, 0) + 1
    for num in sorted(freq, reverse=True):
        if freq[num] >= num:
            return num
    return -1


def main():
    d = {3: "x", 1: "y", 7: "z"}
    names = {"b": 1, "a": 2}
    return (sorted(d), sorted(d, reverse=True), min(d), max(names), search([4, 1, 2, 2, 3, 1]),
            sorted(set(d)))
