# call: main(["name", "of", "string", "enam", "game"])
# expect: ('string', -3)
def main(words):
    """HumanEval 158's find_max, and a count of repeats through a set."""
    best = sorted(words, key=lambda x: (-len(set(x)), x))[0]
    return best, len(words) - len(set("".join(words[1:3])))
