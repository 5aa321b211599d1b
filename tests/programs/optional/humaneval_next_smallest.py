# call: next_smallest([5, 1, 4, 3, 2])
# expect: 2
def next_smallest(lst):
    """The second smallest distinct item, None when there is none (HumanEval/90)."""
    lst = sorted(set(lst))
    return None if len(lst) < 2 else lst[1]
