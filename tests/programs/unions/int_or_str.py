# call: main()
# expect: (True, True, False, True, 'x', '-1', True, False)
# A function returning an int or a str; ==, !=, str() and truth of the union.


def rounded_avg(n: int, m: int):
    if m < n:
        return -1
    summation = 0
    for i in range(n, m + 1):
        summation += i
    return bin(round(summation / (m - n + 1)))


def main():
    return (
        rounded_avg(1, 5) == "0b11",
        rounded_avg(7, 5) == -1,
        rounded_avg(7, 5) == "-1",
        rounded_avg(1, 5) != 3,
        "x" if rounded_avg(1, 5) else "y",
        str(rounded_avg(7, 5)),
        isinstance(rounded_avg(7, 5), int),
        type(rounded_avg(1, 5)) == int,
    )
