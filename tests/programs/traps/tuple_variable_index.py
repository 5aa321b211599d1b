# call: main((3, 1, 4))
# expect trap: IndexError


def main(t):
    total = 0
    for i in range(4):
        total += t[i]
    return total
