# expect: ('default', 'b', '', [1, 2], [4], [], 1.5)
def main() -> tuple[str, str, str, list[int], list[int], list[int], float]:
    empty = ""
    a = "a"
    none_yet: list[int] = []
    some = [3]
    return (empty or "default", a and "b", empty and "b", none_yet or [1, 2],
            some and [4], none_yet and some, 0.0 or 1.5)
