# call: parse_all(["12", "-3", "4.5"])
# expect trap: ValueError
def parse_all(texts):
    """int() does not parse a decimal point."""
    return [int(t) for t in texts]
