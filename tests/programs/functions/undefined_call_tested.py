# call: count_primes(10)
# expect trap: NameError
# A helper the model forgot (is_prime, defined nowhere) tested for its truth: the call is a
# NameError when it runs, before its argument is evaluated; the test gives it a type (bool).
def count_primes(n):
    count = 0
    for i in range(2, n):
        if i > 1 and is_prime(i):
            count += 1
    return count
