# expect trap: UnboundLocalError
def main() -> int:
    xs: list[int] = []
    for x in xs:
        pass
    else:
        return x  # the loop ran zero times: x was never bound
    return 0
