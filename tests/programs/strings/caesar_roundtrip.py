# expect: 'Attack at dawn, zebra!'
def shift(text: str, k: int) -> str:
    out = ""
    for c in text:
        if "a" <= c <= "z":
            out += chr((ord(c) - 97 + k) % 26 + 97)
        elif "A" <= c <= "Z":
            out += chr((ord(c) - 65 + k) % 26 + 65)
        else:
            out += c
    return out


def main() -> str:
    return shift(shift("Attack at dawn, zebra!", 13), -13)
