# limits: heap_words=4096
# expect: 1000
def main() -> int:
    # 2000 characters read one by one: an ASCII 1-character string is made once per run
    # (vm/README.md), so the scan fits in a heap that 2000 new 2-word strings would overflow
    s = "ab" * 1000
    count = 0
    for c in s:
        if c == "a":
            count += 1
    for i in range(len(s)):
        if s[i] == "b":
            count -= 1
    return count + 1000
