# call: first_even([1, 3, 5])
# expect trap: UnboundLocalError
def first_even(xs):
    i = 0
    while i < len(xs):
        if xs[i] % 2 == 0:
            found = xs[i]
            break
        i += 1
    return found
