# expect trap: KeyError
def lookup(keys: list[str], values: list[int], key: str) -> int:
    for i in range(len(keys)):
        if keys[i] == key:
            return values[i]
    raise KeyError(key)


def main() -> int:
    return lookup(["a", "b"], [1, 2], "b") + lookup(["a", "b"], [1, 2], "c")
