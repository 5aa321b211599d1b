# call: main(30)
# expect: (465, 0, 25, 36)
def main(n):
    return sum(range(n + 1)), sum(range(0)), sum(range(1, 10, 2)), sum(x for x in range(9))
