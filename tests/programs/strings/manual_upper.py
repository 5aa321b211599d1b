# expect: 'HELLO, KILN 42!'
def to_upper(s: str) -> str:
    out = ""
    for c in s:
        if "a" <= c and c <= "z":
            out += chr(ord(c) - 32)
        else:
            out += c
    return out


def main() -> str:
    return to_upper("Hello, kiln 42!")
