# call: count_leap(1890, 2110)
# expect: 53
def is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def count_leap(start, stop):
    n = 0
    for y in range(start, stop):
        if is_leap(y):
            n += 1
    return n
