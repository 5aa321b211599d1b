# expect error: unsupported
def main() -> bool:
    a = [1]
    b = a
    return a is b
