# call: sort_third([5, 6, 3, 4, 8, 9, 2])
# expect: [2, 6, 3, 4, 8, 9, 5]
def sort_third(l: list):
    """HumanEval/33: an extended slice assigned its sorted items."""
    l = list(l)
    l[::3] = sorted(l[::3])
    return l
