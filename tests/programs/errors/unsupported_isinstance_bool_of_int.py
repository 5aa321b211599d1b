# expect error: unsupported
# An int parameter may hold a bool (True passed for an int): isinstance(n, bool) is known only
# when it runs.
def main() -> bool:
    n = 3
    return isinstance(n, bool)
