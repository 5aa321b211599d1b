# expect error: unsupported
# sum is a variable of main (assigned below), so the call reads that variable: CPython raises
# UnboundLocalError here, which kiln leaves to CPython.
def main() -> int:
    total = sum([1, 2])
    sum = 3
    return total + sum
