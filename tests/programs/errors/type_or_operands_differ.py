# expect error: type
def main() -> str:
    n = 0
    label = n or "none"
    return label
