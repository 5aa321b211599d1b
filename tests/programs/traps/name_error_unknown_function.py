# expect trap: NameError
def main() -> int:
    """helper is not defined in the module."""
    n = 3
    return helper(n)
