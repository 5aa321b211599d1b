# expect trap: KeyError
def main() -> int:
    d = {"a": 1}
    return d["b"]
