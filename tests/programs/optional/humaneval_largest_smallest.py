# call: largest_smallest_integers([2, 4, 1, 3, 5, 7, -2, -9])
# expect: (-2, 1)
def largest_smallest_integers(lst):
    """A tuple of Optionals (HumanEval/136)."""
    smallest = list(filter(lambda x: x < 0, lst))
    largest = list(filter(lambda x: x > 0, lst))
    return (max(smallest) if smallest else None, min(largest) if largest else None)
