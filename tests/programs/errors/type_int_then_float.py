# expect error: type
def main() -> int:
    x = 0
    x = 0.5
    return 1
