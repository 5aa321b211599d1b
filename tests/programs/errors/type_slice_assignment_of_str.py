# expect error: type
def main() -> list[int]:
    a = [1, 2, 3, 4]
    a[1:2] = "ab"
    return a
