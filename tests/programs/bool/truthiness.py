# expect: [False, True, False, False, True, True, False, True, False, True, False, True]
def main() -> list[bool]:
    """Truth values of zeros, empty and non-empty strings and lists."""
    return [bool(0), bool(-1), bool(0.0), bool(""), bool("0"), bool(" "),
            bool([0][1:]), bool([0]), bool(-0.0), not 0, not "x", not []]
