# call: power(1.5, 7)
# expect: 17.0859375
def power(base, exp):
    if exp == 0:
        return 1.0
    half = power(base, exp // 2)
    if exp % 2 == 0:
        return half * half
    return half * half * base
