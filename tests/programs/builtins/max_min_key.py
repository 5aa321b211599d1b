# expect: ('bb', 'a', 'ccc', -4)
# max and min with a key give the first item with the extreme key, as CPython's.
def strength(s: str) -> int:
    return sum(1 for c in s if c.isupper()) - sum(1 for c in s if c.islower())


def main() -> tuple[str, str, str, int]:
    words = ["a", "bb", "ccc", "BB", "dd"]
    nums = [3, -4, 4, 1]
    return (max(words, key=lambda w: len(w) == 2), min(words, key=len),
            min(words, key=strength), max(nums, key=abs))
