# expect: ('e', 'o', 'zoo', 'apple', 'B', ' ')
def main() -> tuple[str, str, str, str, str, str]:
    """min/max of a string (characters) and of a list of strings."""
    words = ["pear", "apple", "zoo", "kiwi"]
    return min("hello"), max("hello"), max(words), min(words), min("b", "B", "c"), min("a b")
