# call: consonants("Comprehensions are concise")
# expect: ['C', 'm', 'p', 'r', 'h', 'n', 's', 'n', 's', 'r', 'c', 'n', 'c', 's']
def consonants(s):
    """A comprehension over a string's characters, with a filter."""
    return [c for c in s if c not in "aeiouAEIOU "]
