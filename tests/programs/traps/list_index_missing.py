# expect trap: ValueError
def main() -> int:
    return ["a", "b"].index("c")
