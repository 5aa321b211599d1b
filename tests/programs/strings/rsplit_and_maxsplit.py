# expect: ([['a.b', 'c'], ['a', 'b', 'c'], ['k', 'i', 'ln'], ['a', ''], ['', '', ''], ['x', 'y', 'z'], ['a', 'b', 'c'], ['a|b', 'c']], [['a', 'b,c'], ['a', 'b', 'c'], ['a,b,c'], ['a', '', 'a'], ['', '', '', '']], ('report.v2', 'txt'))
def split_name(file_name: str) -> tuple[str, str]:
    before, after = file_name.rsplit(".", 1)
    return before, after


def main() -> tuple[list[list[str]], list[list[str]], tuple[str, str]]:
    """rsplit() and rsplit(sep) give split()'s parts; with maxsplit, rsplit splits from the end
    (at the rightmost occurrence that fits: "aaa".rsplit("aa", 1) is ['a', '']) and split from
    the start; a negative maxsplit splits everywhere, 0 nowhere, and a bool is an int; sep= and
    maxsplit= may be keywords."""
    right = [
        "a.b.c".rsplit(".", 1),
        "a.b.c".rsplit(".", -1),
        " k i  ln ".rsplit(),
        "aaa".rsplit("aa", 1),
        "aaaa".rsplit("aa"),
        "x--y--z".rsplit("--"),
        "a|b|c".split(sep="|"),
        "a|b|c".rsplit("|", maxsplit=1),
    ]
    left = [
        "a,b,c".split(",", 1),
        "a,b,c".split(",", 5),
        "a,b,c".split(",", 0),
        "abba".split("b", True + 1),
        "aaa".split("a", -2),
    ]
    return right, left, split_name("report.v2.txt")
