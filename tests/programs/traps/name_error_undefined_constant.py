# expect trap: NameError
# VOWELS is bound nowhere (the model forgot its module-level constant): CPython raises NameError
# where the comprehension first reads it.
def remove_vowels(text: str) -> str:
    return "".join([c for c in text if c.lower() not in VOWELS])


def main() -> str:
    return remove_vowels("hello")
