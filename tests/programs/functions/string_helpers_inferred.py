# call: title_words("the quick  brown fox")
# expect: 'The Quick  Brown Fox'
def upper_char(c):
    if "a" <= c <= "z":
        return chr(ord(c) - 32)
    return c


def title_words(s):
    out = ""
    prev = " "
    for c in s:
        out += upper_char(c) if prev == " " else c
        prev = c
    return out
