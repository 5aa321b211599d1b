# expect trap: UnboundLocalError
def last_item(xs: list[int]) -> int:
    for x in xs:
        pass
    return x


def main() -> int:
    return last_item([1, 2]) + last_item([])
