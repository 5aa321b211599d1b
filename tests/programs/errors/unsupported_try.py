# expect error: unsupported
def main() -> int:
    try:
        return 1 // 0
    except ZeroDivisionError:
        return 0
