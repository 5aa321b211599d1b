# call: main()
# expect: '3/2.5'
# kiln: Unsupported
# str() of a union: its int case runs; its float case (kiln has no shortest float repr yet) is
# left to the CPython fallback, only where it comes.


def pick(k: int):
    if k > 1:
        return 2.5
    return 3


def main():
    return str(pick(0)) + "/" + str(pick(2))
