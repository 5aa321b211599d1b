# call: second_largest([4, 9, 1, 9, 7, 3])
# expect: 7
def second_largest(xs):
    first = max(xs)
    rest = [x for x in xs if x != first]
    return max(rest)
