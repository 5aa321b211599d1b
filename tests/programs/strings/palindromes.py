# expect: [True, False, True, True, False]
def is_palindrome(word):
    i = 0
    j = len(word) - 1
    while i < j:
        if word[i] != word[j]:
            return False
        i += 1
        j -= 1
    return True


def main() -> list[bool]:
    return [is_palindrome(w) for w in ["racecar", "kiln", "", "a", "ab"]]
