# expect error: unsupported
def main() -> int:
    n = 3
    print(n, flush=True)
    return n
