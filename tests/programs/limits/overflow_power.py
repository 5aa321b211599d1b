# call: power(3, 50)
# expect trap: Overflow
def power(base, exp):
    """3 ** 50 needs 80 bits."""
    return base ** exp
