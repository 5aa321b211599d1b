# expect trap: TypeError
def hex_value(num):
    if len(num) == 0:
        return 0
    return int(num, 16)


def main() -> int:
    """int(x, base) of anything but a str is TypeError (both arguments evaluated first); here
    hex_value([]) compiles for a list (int(num, 16) not reached) and hex_value([1]) reaches it."""
    return hex_value("ff") + hex_value([]) + hex_value([1])
