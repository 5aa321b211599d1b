# expect: ['bcd', 'abc', 'defghij', 'hij', 'abcdefg', 'acegi', 'beh', 'jihgfedcba', 'igeca', '', '', 'edc', 'abcdefghij', 'if', 'jfb']
def main() -> list[str]:
    s = "abcdefghij"
    return [s[1:4], s[:3], s[3:], s[-3:], s[:-3], s[::2], s[1::3], s[::-1],
            s[-2::-2], s[10:20], s[4:1], s[4:1:-1], s[-100:100], s[8:2:-3], s[::-4]]
