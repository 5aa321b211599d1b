# expect trap: IndexError
def main() -> str:
    s = "abc"
    rest = s[3:]
    return rest[-1]
