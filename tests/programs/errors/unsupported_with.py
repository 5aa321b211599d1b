# expect error: unsupported
def resource() -> int:
    return 1


def main() -> int:
    with resource() as r:
        return r
