# call: safe_ratio(10, 0)
# expect trap: ZeroDivisionError
def safe_ratio(a, b):
    """Not safe at all: 10 / 0 raises."""
    return a / b
