def count_vowels(n: int) -> int:
    text = "the quick brown fox jumps over the lazy dog " * n
    count = 0
    for c in text:
        if c in "aeiou":
            count += 1
    return count
