# expect: [1, -4.4, 0]
# int(flag) of a bool is the same word (0 or 1): boxed as the union's int, as CPython's int
def pick(n: int, flag: bool):
    return -4.4 if n > 1 else int(flag)


def main():
    return [pick(0, True), pick(2, True), pick(1, False)]
