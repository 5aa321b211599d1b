# limits: heap_words=4096
# expect trap: HeapExhausted
def main() -> int:
    xs: list[int] = []
    i = 0
    while i < 20000:
        xs.append(i)
        i += 1
    return len(xs)
