# call: f([5])
# expect: ([5], [])
def f(xs: list[int]) -> tuple[list[int], list[int]]:
    # sorted() of a list of 0 or 1 items is still a new list: clearing it leaves xs alone
    ys = sorted(xs)
    ys *= 0
    return (xs, ys)
