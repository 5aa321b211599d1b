# call: count_occurrences("abababa", "aba")
# expect: 3
def count_occurrences(text, pattern):
    n = 0
    for i in range(len(text) - len(pattern) + 1):
        if text[i:i + len(pattern)] == pattern:
            n += 1
    return n
