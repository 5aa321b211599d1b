# expect error: unsupported
def main() -> str:
    return "xxkilnxx".strip("x")
