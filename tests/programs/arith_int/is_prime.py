# call: primes_below(60)
# expect: [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59]
def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


def primes_below(limit):
    out = []
    for n in range(limit):
        if is_prime(n):
            out.append(n)
    return out
