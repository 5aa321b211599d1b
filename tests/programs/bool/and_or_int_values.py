# expect: [5, 3, 0, 5, 0, 0, 7, -2]
def main() -> list[int]:
    zero = 0
    three = 3
    five = 5
    return [zero or five, three or five, zero and five, three and five,
            zero or zero, five and zero, zero or three and 7, -2 or zero]
