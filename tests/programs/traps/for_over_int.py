# call: main()
# expect trap: TypeError
# A for loop over an int: CPython's TypeError ('int' object is not iterable) when the loop
# starts, after the int is evaluated.


def digit_sum(n: int) -> int:
    if n < 10:
        return n
    total = 0
    for d in n:
        total += int(d)
    return total


def main():
    return digit_sum(7) + digit_sum(123)
