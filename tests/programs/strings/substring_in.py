# expect: [True, True, True, True, False, False, True]
def main() -> list[bool]:
    """`in` on strings tests substrings; the empty string is in every string."""
    s = "hello"
    return ["ell" in s, "" in s, "xyz" not in s, "hello" in s, "hello!" in s, "lo" not in s, "h" in s]
