# call: evens(6)
# expect: [0, 2, 4]
# Calls of a name defined nowhere in truth tests that never run: no NameError.
def evens(n):
    out = []
    for i in range(n):
        if i % 2 == 0 or (i > 100 and is_wanted(i)):
            out.append(i)
    if not out and not is_empty_ok(n):
        return [-1]
    return out
