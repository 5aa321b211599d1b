# call: main()
# expect trap: ValueError
# An underscore must stand between two digits: float("1__0") is ValueError in CPython.


def main() -> float:
    total = 0.0
    for t in ["2.5", "1_0", "1__0"]:
        total += float(t)
    return total
