# expect: (2, [10, 9, 92, 39, 34], 'é', 'tab\there', 3)
def main() -> tuple[int, list[int], str, str, int]:
    """Escape sequences become single characters."""
    s = "a\n"
    codes = [ord(c) for c in "\n\t\\'\""]
    return len(s), codes, "\u00e9", "tab\there", len("\x41\x42\x43")
