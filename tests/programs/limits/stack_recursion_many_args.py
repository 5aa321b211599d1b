# limits: stack_words=512 max_call_depth=100000
# expect trap: StackExhausted
def walk(a: int, b: int, c: int, d: int, e: int, f: int) -> int:
    if a == 0:
        return b + c + d + e + f
    return walk(a - 1, b + 1, c, d, e, f) + 1


def main() -> int:
    return walk(300, 0, 1, 2, 3, 4)
