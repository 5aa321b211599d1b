# expect: (True, True, False, True, True, False, True, True, False, False, True, False)
# an int and a float compare exactly, as in CPython: past 2**53 too (CMP_IF), NaN orders with nothing
def main():
    big = -9999999999999999
    f = float('inf')
    n = float('nan')
    h = 9007199254740993
    return (big < f, big > -f, h == 9007199254740992.0, h > 9007199254740992.0, 2.5 < 3, 3 <= 2.5,
            True == 1.0, 1 != n, 1 < n, n >= 1, h != 9007199254740992.0, 2.0 >= h)
