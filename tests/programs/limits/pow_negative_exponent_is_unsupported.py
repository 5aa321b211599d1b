# expect: 3
# kiln: Unsupported
# pow(b, -1, m) is b's inverse modulo m in CPython: kiln leaves it to CPython.
def main() -> int:
    return pow(5, -1, 7)
