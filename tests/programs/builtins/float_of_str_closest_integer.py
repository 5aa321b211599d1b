# call: closest_integer("-15.5")
# expect: -16
# HumanEval/99's shape: float() of the argument, rounded away from zero at halves.


def closest_integer(value: str) -> int:
    num = float(value)
    if num - int(num) == 0.5:
        return int(num) + 1
    if int(num) - num == 0.5:
        return int(num) - 1
    return round(num)
