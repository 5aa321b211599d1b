# call: main()
# expect: [3, -1, 4]
# A loop whose else returns (and that has no break) never reaches the end of the function, nor
# does a `while True:` left only by return: the result stays an int.


def find(xs: list[int], x: int) -> int:
    for i in range(len(xs)):
        if xs[i] == x:
            return i
    else:
        return -1


def spin(n: int) -> int:
    while True:
        n += 1
        if n % 4 == 0:
            return n


def main() -> list[int]:
    return [find([1, 2, 3, 4], 4), find([1], 5), spin(1)]
