# expect: (2, 0)
def count_primes(num):
    digits = [int(c, 16) for c in num]
    return len([d for d in digits if d in (2, 3, 5, 7, 11, 13)])


def main() -> tuple[int, int]:
    """count_primes([]) after count_primes("AB2"): the list's items are strs, as int(c, 16)
    in the body tells."""
    return count_primes("AB2"), count_primes([])
