# expect trap: NameError
# math.pi with no `import math`: NameError when it is read.
def area(r: float) -> float:
    return math.pi * r * r


def main() -> float:
    return area(2.0)
