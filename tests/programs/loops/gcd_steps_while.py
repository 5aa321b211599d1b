# call: steps(1071, 462)
# expect: (21, 3)
def steps(a, b):
    n = 0
    while b:
        a, b = b, a % b
        n += 1
    return a, n
