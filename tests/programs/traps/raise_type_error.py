# expect trap: TypeError
def main() -> str:
    kind = "list"
    if kind != "str":
        raise TypeError("expected str, got " + kind)
    return kind
