# expect: 0.1
# kiln: Unsupported
# round(0.1, 30) needs the binary value of 0.1 to 30 decimal places, more than 53 bits hold:
# kiln leaves it to CPython (so does any round(x, n) with n < 0 or n > 22 where x has digits
# past the n-th place).
def main() -> float:
    return round(0.1, 30)
