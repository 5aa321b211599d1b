# expect: (2, [0, 2, 4], -1, 5, -1, 3, 0, 1, -1)
# s.find(sub, start): start as a slice's (negative counts from the end), the index in s; -1
# when absent or when start is past the end (even for an empty sub).
def how_many_times(string: str, substring: str) -> list[int]:
    found = []
    i = string.find(substring)
    while i != -1:
        found.append(i)
        i = string.find(substring, i + 1)
    return found


def main():
    s = "ababa"
    return (
        s.find("a", 1),
        how_many_times(s, "a"),
        s.find("a", 5),
        s.find("", 5),
        s.find("", 6),
        s.find("b", -2),
        s.find("a", -99),
        s.find("b", True),
        s.find("c", 0),
    )
