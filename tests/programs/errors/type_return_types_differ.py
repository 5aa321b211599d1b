# expect error: type
def pick(flag: bool):
    if flag:
        return 1
    return "one"


def main() -> int:
    pick(True)
    return 1
