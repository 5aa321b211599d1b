# call: checked_sqrt(-4)
# expect trap: AssertionError
def checked_sqrt(n):
    assert n >= 0, "n must be non-negative, got " + str(n)
    return n ** 0.5
