# expect: 3
# A call of a name defined nowhere is an error only when it runs (NameError): a model that
# forgot a helper still passes the tests that never reach it.
def main() -> int:
    total = 0
    for i in range(3):
        total += i
    if total > 5:
        return is_prime(total)
    return total
