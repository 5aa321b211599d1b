# limits: heap_words=3500
# expect: 1000
# kiln: HeapExhausted
def main() -> int:
    # at or above code point 128 every character read is a new 2-word string (vm/README.md):
    # 1000 of them and the 2001-word string do not fit in this heap, where CPython runs it
    s = "éa" * 1000
    count = 0
    for c in s:
        if c == "é":
            count += 1
    return count
