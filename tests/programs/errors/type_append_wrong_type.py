# expect error: type
def main() -> int:
    xs: list[int] = []
    xs.append("a")
    return len(xs)
