# expect error: unsupported
def main() -> int:
    global total
    total = 5
    return total
