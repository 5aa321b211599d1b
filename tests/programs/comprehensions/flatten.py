# call: flatten([[1, 2], [], [3], [4, 5, 6]])
# expect: [1, 2, 3, 4, 5, 6]
def flatten(grid):
    """Two for clauses: the outer one is written first."""
    return [x for row in grid for x in row]
