# expect: [12345, -678, 0, 7]
def atoi(s: str) -> int:
    sign = 1
    i = 0
    if s[0] == "-":
        sign = -1
        i = 1
    n = 0
    while i < len(s):
        n = n * 10 + (ord(s[i]) - ord("0"))
        i += 1
    return sign * n


def main() -> list[int]:
    return [atoi("12345"), atoi("-678"), atoi("0"), atoi("007")]
