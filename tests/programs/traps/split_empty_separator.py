# expect trap: ValueError
def main() -> list[str]:
    sep = ""
    return "a b".split(sep)
