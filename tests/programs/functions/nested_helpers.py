# call: main(10)
# expect: (4, [2, 3, 5, 7], True)
def main(n):
    """Nested functions that read nothing of the enclosing function are module functions."""

    def is_prime(k):
        if k < 2:
            return False
        for d in range(2, k):
            if k % d == 0:
                return False
        return True

    def count(xs):
        return sum(1 for x in xs if is_prime(x))

    primes = [k for k in range(n) if is_prime(k)]
    return count(list(range(n))), primes, is_prime(n + 1)
