# expect: [3, -4, 9223372036854775806, -2, 0]
def main() -> list[int]:
    big = 9223372036854775807
    small = -9223372036854775807 - 1
    return [-5 % 4, 5 % -9, small % big, small % -3, small % 2]
