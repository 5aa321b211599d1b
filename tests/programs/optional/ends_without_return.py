# call: main()
# expect: ([True, None, False, True], None, 4)
# A function annotated `-> bool` that returns a value on some paths and reaches the end of its
# body on others: CPython returns None there, so its result is Optional[bool].


def is_prime_length(s: str) -> bool:
    n = len(s)
    if n == 2 or n == 3:
        return True
    if n > 3 and n % 2 != 0:
        for i in range(2, n):
            if n % i == 0:
                return False
        return True


def first_even(xs):
    for x in xs:
        if x % 2 == 0:
            return x


def main():
    lengths = [is_prime_length(s) for s in ["ab", "abcd", "abcdefghi", "abcde"]]
    return (lengths, first_even([1, 3]), first_even([1, 4]))
