# expect trap: ValueError
def main() -> str:
    s = "abcdef"
    step = 0
    return s[::step]
