# call: main()
# expect trap: AttributeError
# A method its value's class does not have (int has no replace): CPython's AttributeError where
# it runs, after the object and before the arguments are evaluated.


def clean(n: int) -> int:
    if n < 0:
        return 0
    return int(n.replace("-", ""))


def main():
    return clean(-1) + clean(12)
