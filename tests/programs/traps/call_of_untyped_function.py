# expect trap: NameError
# A function called only with a name bound nowhere is never typed: the read raises NameError
# before the call.


def is_palindrome(w):
    return w == w[::-1]


def main() -> list[bool]:
    return [is_palindrome(w) for ww in ["ab", "aa"]]
