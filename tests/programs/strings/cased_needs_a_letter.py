# expect: (False, False, True, True, False, True)
def main() -> tuple[bool, bool, bool, bool, bool, bool]:
    """isupper/islower need at least one cased character; digits and spaces are uncased."""
    return "123".isupper(), "1 2".islower(), "A1".isupper(), "a 1".islower(), "aB".islower(), "HELLO WORLD".isupper()
