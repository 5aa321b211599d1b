# expect trap: ValueError
def parse_sign(c: str) -> int:
    if c == "+":
        return 1
    if c == "-":
        return -1
    raise ValueError("x")


def main() -> int:
    return parse_sign("+") + parse_sign("?")
