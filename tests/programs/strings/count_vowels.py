# call: count_vowels("hello world, kiln")
# expect: 4
def count_vowels(s):
    n = 0
    for c in s:
        if c in "aeiouAEIOU":
            n += 1
    return n
