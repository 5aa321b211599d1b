# expect error: type
def main() -> int:
    x = 0
    x = "a"
    return 1
