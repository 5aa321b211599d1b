# call: main()
# expect: (['mid', 'low', 'high', 'mid'], [1.5, 2, 0.33], 27)
# A chained comparison and round(x, n) of items that are ints or floats.


def grade(xs: list) -> list[str]:
    out = []
    for x in xs:
        if 1 <= x < 2.5:
            out.append("mid")
        elif x < 1:
            out.append("low")
        else:
            out.append("high")
    return out


def main():
    xs = [1, 0.5, 3, 2.25]
    ys = [1.5, 2, 1 / 3]
    total = 0
    for x in xs:
        total = total + round(x * 4, 0)
    return (grade(xs), [round(y, 2) for y in ys], int(total))
