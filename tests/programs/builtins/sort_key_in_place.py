# expect: (['b', 'a', 'dd', 'cc', 'eee'], ['eee', 'dd', 'cc', 'b', 'a'], ['b', 'a', 'dd', 'cc', 'eee'])
# xs.sort(key=...) sorts in place (aliases see it), stably; reverse=True keeps equal keys in
# their order too.
def main() -> tuple[list[str], list[str], list[str]]:
    words = ["b", "dd", "a", "eee", "cc"]
    alias = words
    words.sort(key=lambda w: (len(w), -ord(w[0])))
    other = ["b", "dd", "a", "eee", "cc"]
    other.sort(key=len, reverse=True)
    return (words, other, alias)
