# call: caesar("Hello, World!", 3)
# expect: 'Khoor, Zruog!'
def shift_char(c, k):
    if "a" <= c <= "z":
        return chr((ord(c) - ord("a") + k) % 26 + ord("a"))
    if "A" <= c <= "Z":
        return chr((ord(c) - ord("A") + k) % 26 + ord("A"))
    return c


def caesar(text, k):
    out = ""
    for c in text:
        out = out + shift_char(c, k)
    return out
