# expect: ['a', 'b']
# kiln: Unsupported
def main() -> list[str]:
    """U+00A0 is whitespace to str.split(): kiln's split() is ASCII-only, so it falls back."""
    return "a\xa0b".split()
