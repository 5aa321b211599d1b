# expect: (1, 'one', True)
def pick(flag: bool):
    if flag:
        return 1
    return "one"


def main() -> int:
    return (pick(True), pick(False), pick(False) == 'one')
