# expect error: unsupported
# round of an int with a computed ndigits (a negative one rounds to tens, hundreds, ...)
def main() -> int:
    n = -1
    return round(1234, n)
