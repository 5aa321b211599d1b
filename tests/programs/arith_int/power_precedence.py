# expect: [512, -4, 4, 46, 1]
def main() -> list[int]:
    two = 2
    three = 3
    return [two ** three ** 2, -two ** 2, (-two) ** 2, 2 + 3 * 4 ** 2 - 4, 10 - 3 * 3]
