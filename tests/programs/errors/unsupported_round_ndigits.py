# expect error: unsupported
def main() -> float:
    return round(2.675, 2)
