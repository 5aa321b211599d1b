# call: anagram_pairs(["listen", "silent", "enlist", "google", "gogole", "kiln"])
# expect: 4
def is_anagram(a, b):
    return sorted(a) == sorted(b)


def anagram_pairs(words):
    count = 0
    for i in range(len(words)):
        for j in range(i + 1, len(words)):
            if is_anagram(words[i], words[j]):
                count += 1
    return count
