# call: main("hello")
# expect: (2, 10, 'aeiou', (1, 'x'), 3)
FIX = """
Add more test cases.
"""
VOWELS = "aeiou"
LIMIT = 10
PAIR = (1, "x")


def count(s):
    return sum(c in VOWELS for c in s)


def shadow():
    LIMIT = 3  # a local of its own, as in Python
    return LIMIT


def main(s):
    """Module-level names bound once to an immutable literal are constants."""
    return count(s), LIMIT, VOWELS, PAIR, shadow()
