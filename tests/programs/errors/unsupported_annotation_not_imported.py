# expect error: unsupported
# CPython evaluates a def's annotations when the def runs: List is not imported (NameError).
def main() -> List[int]:
    return [1]
