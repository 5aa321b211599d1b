# expect trap: ValueError
def main() -> str:
    """chr() accepts 0..0x10FFFF only."""
    code = ord("a") - 98
    return chr(code)
