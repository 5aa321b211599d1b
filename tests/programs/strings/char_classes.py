# expect: [(True, False, True, False, False, True), (False, True, True, False, False, False), (False, False, False, False, False, False), (True, False, True, False, True, False), (False, False, False, True, False, False), (False, False, True, False, False, True), (False, False, False, False, False, True), (False, False, False, True, False, False), (True, False, True, False, False, True)]
def classes(s: str) -> tuple[bool, bool, bool, bool, bool, bool]:
    return s.isalpha(), s.isdigit(), s.isalnum(), s.isspace(), s.isupper(), s.islower()


def main() -> list[tuple[bool, bool, bool, bool, bool, bool]]:
    words = ["abc", "123", "", "ABC", " \t\n\x0b\x0c\r\x1c\x1f", "a1b", "a b", "\x1d", "z"]
    return [classes(w) for w in words]
