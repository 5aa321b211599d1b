# call: main(0)
# expect trap: ValueError
import math


def main(x):
    return math.pow(x, -1)
