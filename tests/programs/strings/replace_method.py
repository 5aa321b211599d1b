# expect: ('bonono', 'banana', '-b-a-n-a-n-a-', 'bnn', 'aaaa', '--', 'x')
def main() -> tuple[str, str, str, str, str, str, str]:
    s = "banana"
    return (
        s.replace("a", "o"),
        s.replace("x", "y"),
        s.replace("", "-"),
        s.replace("a", ""),
        "aa".replace("a", "aa"),
        "".replace("", "--"),
        "aaa".replace("aa", "x")[:1],
    )
