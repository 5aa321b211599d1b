# expect: [7, 1, 0, -3, 3, 42, -17, 8, 5, 7, 0, -9223372036854775808]
def main() -> list[int]:
    t = True
    f = False
    return [int(7), int(t), int(f), int(-3.7), int(3.99), int("42"), int("-17"), int(" 8\n"),
            int("+5"), int("007"), int("-0"), int("-9223372036854775808")]
