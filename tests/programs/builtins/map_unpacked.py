# call: main()
# expect: (2, 3, 2024, '7')
# `a, b = map(int, xs)` unpacks the converted items (int, float or str: they raise nothing but
# ValueError, as a wrong count does).


def main():
    num, den = map(int, "2/3".split("/"))
    month, day, year = map(int, "04-15-2024".split("-"))
    month2, = map(str, [7])
    return (num, den + month - 4 + day - 15, year, month2)
