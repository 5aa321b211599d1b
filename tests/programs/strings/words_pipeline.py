# call: main("The quick brown Fox jumps over the lazy dog")
# expect: ('dog lazy the over jumps fox brown quick the', 9, 'T-q-b-F-j-o-t-l-d')
def main(text):
    words = text.lower().split()
    words.reverse()
    long_words = sum(1 for w in words if len(w) > 2)
    initials = "-".join(w[0] for w in text.split(" "))
    return " ".join(words), long_words, initials
