# expect: ([1, 1, 2, 2, 3, 3, 4, 5, 5, 6], [0, 0, 1, 2, 2, 3, 4, 4, 5, 6])
def female(n: int) -> int:
    if n == 0:
        return 1
    return n - male(female(n - 1))


def male(n: int) -> int:
    if n == 0:
        return 0
    return n - female(male(n - 1))


def main() -> tuple[list[int], list[int]]:
    return [female(n) for n in range(10)], [male(n) for n in range(10)]
