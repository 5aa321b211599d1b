# call: common([1, 4, 3, 34, 653, 2, 5], [5, 7, 1, 5, 9, 653, 121])
# expect: [1, 5, 653]
# HumanEval/58's shape: the sorted intersection of two lists' sets.


def common(l1: list, l2: list):
    return sorted(set(l1) & set(l2))
