# call: char_at("kiln", 4)
# expect trap: IndexError
def char_at(s, i):
    """Valid indices of "kiln" are -4..3."""
    return s[i]
