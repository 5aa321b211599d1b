# expect: [True, False, True, False, False, True]
def is_palindrome(s: str) -> bool:
    return s == s[::-1]


def main() -> list[bool]:
    words = ["level", "kiln", "noon", "ab", "abca", "x"]
    return [is_palindrome(w) for w in words]
