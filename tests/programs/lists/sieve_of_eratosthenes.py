# expect: (25, [73, 79, 83, 89, 97])
def sieve(n: int) -> list[int]:
    is_prime = [True] * n
    is_prime[0] = False
    is_prime[1] = False
    for i in range(2, n):
        if is_prime[i]:
            for j in range(i * i, n, i):
                is_prime[j] = False
    return [i for i in range(n) if is_prime[i]]


def main() -> tuple[int, list[int]]:
    primes = sieve(100)
    return len(primes), primes[-5:]
