# limits: heap_words=4096
# expect trap: HeapExhausted
def main() -> int:
    s = "kiln"
    for _ in range(16):
        s = s + s
    return len(s)
