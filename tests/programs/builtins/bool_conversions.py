# expect: [False, True, True, False, True, False, True, False, True]
def main() -> list[bool]:
    empty: list[int] = []
    return [bool(0), bool(7), bool(-0.5), bool(""), bool("False"), bool(empty), bool([empty]),
            bool(False), bool(True)]
