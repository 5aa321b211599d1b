# expect: (-1, 0, 1, 'odd', 'odd', 'big', 2.5)
def sign(x: int) -> int:
    return -1 if x < 0 else (0 if x == 0 else 1)


def main() -> tuple[int, int, int, str, str, str, float]:
    n = 7
    s = "abc"
    return (sign(-9), sign(0), sign(4), "even" if n % 2 == 0 else "odd" if n > 0 else "zero",
            "odd" if n % 2 else "even", "big" if s else "empty", 2.5 if len(s) > 2 else 1.0)
