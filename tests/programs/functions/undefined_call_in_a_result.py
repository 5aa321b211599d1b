# expect: 'ac'
# is_palindrome is defined nowhere: a call of it would be a NameError, but this run never makes
# it; `check`'s result type, which only that call tells, is then any type.
def check(s: str):
    return (s, is_palindrome(s))


def main() -> str:
    kept = "".join([ch for ch in "abc" if ch != "b"])
    if len(kept) > 5:
        check(kept)
    return kept
