# call: next_smallest([1, 1])
# expect: None
def next_smallest(lst):
    lst = sorted(set(lst))
    return None if len(lst) < 2 else lst[1]
