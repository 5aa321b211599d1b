# expect: 'none'
# `n or "none"` of an int and a str: the value is either, a union.
def main() -> str:
    n = 0
    label = n or "none"
    return label
