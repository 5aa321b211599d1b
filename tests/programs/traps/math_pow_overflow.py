# call: main(10)
# expect trap: OverflowError
import math


def main(x):
    return math.pow(x, 400)
