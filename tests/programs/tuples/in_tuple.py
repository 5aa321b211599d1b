# call: main("2B7", 13)
# expect: (3, True, True, False)
def main(num, n):
    primes = ("2", "3", "5", "7", "B", "D")
    total = 0
    for c in num:
        if c in primes:
            total += 1
    odd = (1, 3, 5, 7, 9)
    return total, n % 10 in odd, n not in odd, 1.5 in (0.5, 2.5)
