# expect: [False, False, False, False, False, False, False, False, True, True]
def parses(s: str, base: int) -> bool:
    for c in s:
        if c == "_" or c == " ":
            continue
        if not ("0" <= c <= "9" or "a" <= c.lower() <= "z"):
            return False
        if int(c, 36) >= base:
            return False
    return True


def main() -> list[bool]:
    """Which strings int(s, base) would take, digit by digit: int(c, 36) of each character
    gives its digit value (10 for "a" and "A", 35 for "z")."""
    texts = [("12", 2), ("g", 16), ("8", 8), ("-", 10), ("z", 35), ("!", 36), ("2", 2), ("a", 10)]
    texts += [("Z", 36), ("1 0", 2)]
    return [parses(s, b) for s, b in texts]
