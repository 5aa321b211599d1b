# expect: (2, 1, 30, 10, 20)
def main() -> tuple[int, int, int, int, int]:
    a = 1
    b = 2
    a, b = b, a
    x = 10
    y = 20
    z = 30
    x, y, z = z, x, y
    return a, b, x, y, z
