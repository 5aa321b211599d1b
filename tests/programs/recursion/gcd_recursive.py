# call: gcd(1071, 462)
# expect: 21
def gcd(a, b):
    """Euclid, recursively."""
    if b == 0:
        return a
    return gcd(b, a % b)
