# expect: (['', 'a', 'ab', 'b'], [False, True], 3, ['x', 'y'], True)
def main():
    words = {"b", "a", "", "ab", "a"}
    flags = set([True, False, True])
    letters = set("banana")
    seen = set()
    for ch in "xyxyx":
        seen.add(ch)
    return sorted(words), sorted(flags), len(letters), sorted(seen), set(range(3)) == {2, 1, 0}
