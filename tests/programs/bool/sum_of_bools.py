# call: count_above([1, 5, 3, 8, 2, 9], 3)
# expect: 3
def count_above(xs, limit):
    """Count the elements above a limit by summing booleans."""
    return sum([x > limit for x in xs])
