# expect: (['a', 'b', 'c'], [], ['', 'a', '', 'b', ''], ['a', 'b'], ['x'], ['', ''], 'a-b-c', '', 'solo', 'a, b', ['1', '22', '333'])
def main() -> tuple[list[str], list[str], list[str], list[str], list[str], list[str], str, str, str, str, list[str]]:
    return (
        "  a b\tc\n".split(),
        " \t ".split(),
        " a  b ".split(" "),
        "a--b".split("--"),
        "x".split(","),
        "ab".split("ab"),
        "-".join(["a", "b", "c"]),
        ", ".join([]),
        ", ".join(["solo"]),
        ", ".join("a b".split()),
        " ".join(["1", "22", "333"]).split(),
    )
