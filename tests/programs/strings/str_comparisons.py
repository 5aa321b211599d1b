# expect: [True, True, True, True, True, True, True, True, False, True]
def main() -> list[bool]:
    """Strings order lexicographically by code point."""
    return ["apple" < "banana", "Apple" < "apple", "abc" < "abcd", "" < "a", "b" > "abc",
            "abc" == "abc", "a" != "b", "Z" <= "a", "abc" >= "abd", "é" > "z"]
