# expect trap: ValueError
def main() -> int:
    return "kiln".index("z")
